import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBuiltinTools } from '../../../src/tools/builtin.js';
import { createGrepTool } from '../../../src/tools/grep.js';
import { createLargeOutputSaver, SAVED_BASH_CHARS, withLargeOutput } from '../../../src/tools/large-output.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import { SEARCH_PATHS, useSearchPath } from '../../helpers/search-paths.js';

// The grep tool in a session that saves large outputs (the tool pool's wiring): no 250-result cap;
// a result too big for the context is saved whole and paged with read_file.

const FILES = 20;
const LINES_PER_FILE = 10_000;

async function setUp() {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cairn-grep-large-')));
  const workspace = path.join(root, 'ws');
  await mkdir(path.join(workspace, 'logs'), { recursive: true });
  // 200,000 matching lines over 20 files (each under grep's 1 MB per-file limit).
  for (let f = 0; f < FILES; f++) {
    const lines = Array.from({ length: LINES_PER_FILE }, (_, i) => `match ${f * LINES_PER_FILE + i + 1}`);
    await writeFile(path.join(workspace, 'logs', `part-${String(f).padStart(2, '0')}.log`), `${lines.join('\n')}\n`);
  }
  const saver = createLargeOutputSaver({ sessionDir: path.join(root, 'home', 'projects', 'ws-key', 'session-a'), threshold: async () => 30_000 });
  const ctx = (id: string) => ({ cwd: workspace, signal: new AbortController().signal, toolUseId: id });
  return { workspace, saver, ctx };
}

describe.each(SEARCH_PATHS)('on the %s path', (_path, ripgrep) => {
  useSearchPath(ripgrep);

  describe('grep with a large-output saver', () => {
    it('a 200,000-line grep is saved whole, not capped at 250, and read_file pages through it', async () => {
      const { saver, ctx } = await setUp();
      const pooled = createBuiltinTools({ outputChars: SAVED_BASH_CHARS }).find((t) => t.name === 'grep');
      if (!pooled) throw new Error('no grep tool in the pool');
      const grep = withLargeOutput(pooled, saver);
      const r = await grep.call({ pattern: '^match \\d+$', output_mode: 'content' }, ctx('toolu_grep'));
      expect(r.isError).toBeFalsy();
      expect(r.content.length).toBeLessThan(6_000);
      expect(r.content).toMatch(/^Output too large for the context \([\d,]+ characters, 200,000 lines/);
      expect(r.content).not.toContain('capped');
      expect(r.content).toContain('logs/part-00.log:1:match 1\n');
      expect(r.content).toContain('logs/part-19.log:10000:match 200000');

      const file = /saved to (\S+\.txt)$/m.exec(r.content)?.[1] ?? '';
      expect(file).toBe(path.join(saver.dir, 'toolu_grep.txt'));
      const saved = (await readFile(file, 'utf8')).split('\n');
      expect(saved).toHaveLength(200_000);
      expect(new Set(saved.map((l) => l.replace(/^.*:match /, ''))).size).toBe(200_000);

      const page = await createReadFileTool().call({ path: file, offset: 150_001, limit: 2 }, ctx('toolu_read'));
      expect(page.content).toContain(saved[150_000]);
      expect(page.content).toContain(saved[150_001]);
      expect(page.content).not.toContain(saved[150_002]);
    });

    it('without a saver (a tool built on its own), grep still caps at 250 lines and says so', async () => {
      const { ctx } = await setUp();
      const r = await createGrepTool().call({ pattern: '^match \\d+$', output_mode: 'content' }, ctx('toolu_small'));
      expect(r.content.split('\n').filter((l) => /:match \d+$/.test(l))).toHaveLength(250);
      expect(r.content).toContain('(Results capped at 250 matching lines; there are more. Narrow the pattern, path or glob.)');
    });
  });
});
