import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool, MAX_GLOB_RESULTS } from '../../../src/tools/glob.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { SEARCH_PATHS, useSearchPath } from '../../helpers/search-paths.js';

let dir: string;
let ctx: ToolContext;
const tool = createGlobTool();

async function touch(rel: string, mtimeSec: number): Promise<void> {
  const abs = path.join(dir, rel);
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.writeFile(abs, '');
  await fs.utimes(abs, mtimeSec, mtimeSec);
}

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-glob-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe.each(SEARCH_PATHS)('on the %s path', (_path, ripgrep) => {
  useSearchPath(ripgrep);

  describe('glob', () => {
    it('returns workspace-relative matches newest first, respecting .gitignore and hiding .git', async () => {
      await fs.writeFile(path.join(dir, '.gitignore'), 'dist/\nnode_modules/\ngen-*.ts\n');
      await touch('src/old.ts', 1_000_000);
      await touch('src/new.ts', 3_000_000);
      await touch('src/deep/mid.ts', 2_000_000);
      await touch('src/gen-x.ts', 4_000_000);
      await touch('dist/out.ts', 5_000_000);
      await touch('node_modules/p/index.ts', 5_000_000);
      await touch('.git/hooks/x.ts', 5_000_000);
      const r = await tool.call({ pattern: '**/*.ts' }, ctx);
      expect(r.isError).toBeFalsy();
      expect(r.content).toBe('src/new.ts\nsrc/deep/mid.ts\nsrc/old.ts');
    });

    it('searches under path, still reporting paths relative to the workspace', async () => {
      await touch('a/one.md', 1_000_000);
      await touch('b/two.md', 1_000_000);
      const r = await tool.call({ pattern: '*.md', path: 'b' }, ctx);
      expect(r.content).toBe('b/two.md');
    });

    it('still finds files when pointed inside an ignored directory on purpose', async () => {
      await fs.writeFile(path.join(dir, '.gitignore'), 'dist/\n');
      await touch('dist/bundle.js', 1_000_000);
      const r = await tool.call({ pattern: '*.js', path: 'dist' }, ctx);
      expect(r.content).toBe('dist/bundle.js');
    });

    it('handles absolute patterns', async () => {
      await touch('x/y/z.txt', 1_000_000);
      const r = await tool.call({ pattern: `${dir}/x/**/*.txt` }, ctx);
      expect(r.content).toBe('x/y/z.txt');
    });

    it('caps results with a note', async () => {
      for (let i = 0; i < MAX_GLOB_RESULTS + 3; i++) await touch(`many/f${i}.txt`, 1_000_000 + i);
      const r = await tool.call({ pattern: 'many/*.txt' }, ctx);
      const lines = r.content.split('\n').filter((l) => l.startsWith('many/'));
      expect(lines).toHaveLength(MAX_GLOB_RESULTS);
      expect(lines[0]).toBe(`many/f${MAX_GLOB_RESULTS + 2}.txt`);
      expect(r.content).toContain(`Showing the ${MAX_GLOB_RESULTS} newest of ${MAX_GLOB_RESULTS + 3} matches`);
    });

    it('says when nothing matches, and names a missing path', async () => {
      const none = await tool.call({ pattern: '**/*.rs' }, ctx);
      expect(none.isError).toBeFalsy();
      expect(none.content).toContain('No files match "**/*.rs"');
      const missing = await tool.call({ pattern: '*', path: 'ghost' }, ctx);
      expect(missing.isError).toBe(true);
      expect(missing.content).toContain('ghost');
    });

    it('is read-only and concurrency safe', () => {
      expect(tool.effects?.({ pattern: '*' })).toBe('none');
      expect(tool.isConcurrencySafe?.({ pattern: '*' })).toBe(true);
      expect(tool.paths?.({ pattern: '*', path: 'src' })).toEqual(['src']);
    });
  });
});
