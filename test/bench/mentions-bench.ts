import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildFileIndex } from '../../src/mentions/file-index.js';
import { fuzzyMatch } from '../../src/mentions/fuzzy-match.js';

// `@` completion on a 100,000-file git repository: the index (`git ls-files -co --exclude-standard`,
// files untracked so git walks the tree) built once, then one fuzzy match per keystroke of a query.

export async function benchMentions(files = 100_000): Promise<{ files: number; indexMs: number; walkMs: number; perKeyMs: number }> {
  const root = mkdtempSync(path.join(tmpdir(), 'cairn-mention-bench-'));
  try {
    for (let i = 0; i < files; i++) {
      const dir = path.join(root, `pkg${i % 50}`, `module${Math.floor(i / 50) % 40}`);
      if (i < 2000) mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `file-${i}.ts`), '');
    }
    writeFileSync(path.join(root, '.gitignore'), 'pkg49/\n');
    execFileSync('git', ['init', '-q'], { cwd: root });
    let start = performance.now();
    const index = await buildFileIndex(root);
    const indexMs = performance.now() - start;
    rmSync(path.join(root, '.git'), { recursive: true, force: true });
    start = performance.now();
    await buildFileIndex(root);
    const walkMs = performance.now() - start;
    const pool = [...index.dirs, ...index.files];
    const query = 'pkg12mod3file';
    fuzzyMatch(pool, 'x');
    start = performance.now();
    for (let k = 1; k <= query.length; k++) fuzzyMatch(pool, query.slice(0, k));
    const perKeyMs = (performance.now() - start) / query.length;
    return { files: index.files.length, indexMs, walkMs, perKeyMs };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchMentions();
  console.log(`@ mentions, ${r.files} files (of 100,000; pkg49/ ignored): git index ${r.indexMs.toFixed(0)} ms, walk without git ${r.walkMs.toFixed(0)} ms, fuzzy match per keystroke ${r.perKeyMs.toFixed(1)} ms`);
}
