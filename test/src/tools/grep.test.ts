import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool, MAX_GREP_RESULTS } from '../../../src/tools/grep.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { SEARCH_PATHS, useSearchPath } from '../../helpers/search-paths.js';

let dir: string;
let ctx: ToolContext;
const tool = createGrepTool();

async function put(rel: string, content: string | Buffer): Promise<void> {
  const abs = path.join(dir, rel);
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.writeFile(abs, content);
}

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-grep-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
  await put('.gitignore', 'build/\n*.log\n');
  await put('src/a.ts', 'import x\nconst needle = 1;\n// Needle again\n');
  await put('src/b.js', 'needle();\n');
  await put('src/sub/.gitignore', 'private.ts\n');
  await put('src/sub/private.ts', 'needle\n');
  await put('build/out.js', 'needle\n');
  await put('debug.log', 'needle\n');
  await put('node_modules/pkg/index.js', 'needle\n');
  await put('.git/config', 'needle\n');
  await put('blob.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]));
  await put('huge.txt', `${'a'.repeat(1024 * 1024 + 10)}\nneedle\n`);
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe.each(SEARCH_PATHS)('on the %s path', (_path, ripgrep) => {
  useSearchPath(ripgrep);

  describe('grep', () => {
    it('lists matching files, skipping ignored, nested-ignored, node_modules, .git, binary and huge files', async () => {
      const r = await tool.call({ pattern: 'needle' }, ctx);
      expect(r.isError).toBeFalsy();
      expect(r.content).toBe('src/a.ts\nsrc/b.js');
    });

    it('prints path:line:text in content mode, case-insensitively when asked', async () => {
      const r = await tool.call({ pattern: 'needle', output_mode: 'content', case_insensitive: true, path: 'src' }, ctx);
      expect(r.content).toBe('src/a.ts:2:const needle = 1;\nsrc/a.ts:3:// Needle again\nsrc/b.js:1:needle();');
    });

    it('counts matches per file', async () => {
      const r = await tool.call({ pattern: 'needle', output_mode: 'count', case_insensitive: true }, ctx);
      expect(r.content).toBe('src/a.ts:2\nsrc/b.js:1');
    });

    it('filters by glob', async () => {
      const r = await tool.call({ pattern: 'needle', glob: '*.js' }, ctx);
      expect(r.content).toBe('src/b.js');
    });

    it('searches node_modules and ignored directories when pathed there explicitly', async () => {
      expect((await tool.call({ pattern: 'needle', path: 'node_modules' }, ctx)).content).toBe('node_modules/pkg/index.js');
      expect((await tool.call({ pattern: 'needle', path: 'build' }, ctx)).content).toBe('build/out.js');
    });

    it('reports an invalid regex readably', async () => {
      const r = await tool.call({ pattern: 'foo(' }, ctx);
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/^Invalid regular expression "foo\(": /);
    });

    it('says when nothing matches, and names a missing path', async () => {
      const none = await tool.call({ pattern: 'zzz_nothing' }, ctx);
      expect(none.isError).toBeFalsy();
      expect(none.content).toContain('No matches for /zzz_nothing/');
      const missing = await tool.call({ pattern: 'x', path: 'ghost' }, ctx);
      expect(missing.isError).toBe(true);
      expect(missing.content).toContain('ghost');
    });

    it('refuses a binary file given explicitly', async () => {
      const r = await tool.call({ pattern: 'needle', path: 'blob.bin' }, ctx);
      expect(r.isError).toBe(true);
      expect(r.content).toContain('blob.bin is a binary file');
    });

    it('caps content output with a note', async () => {
      await put('src/many.txt', Array.from({ length: MAX_GREP_RESULTS + 50 }, (_, i) => `hit ${i}`).join('\n'));
      const r = await tool.call({ pattern: '^hit', output_mode: 'content' }, ctx);
      expect(r.content.split('\n').filter((l) => l.startsWith('src/many.txt:'))).toHaveLength(MAX_GREP_RESULTS);
      expect(r.content).toContain(`Results capped at ${MAX_GREP_RESULTS} matching lines`);
    });

    it('is read-only and concurrency safe', () => {
      expect(tool.kind).toBe('read');
      expect(tool.effects?.({ pattern: 'x' })).toBe('none');
      expect(tool.isConcurrencySafe?.({ pattern: 'x' })).toBe(true);
    });
  });
});
