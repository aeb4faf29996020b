import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../../src/tools/glob.js';
import { createGrepTool } from '../../../src/tools/grep.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { SEARCH_PATHS, useSearchPath } from '../../helpers/search-paths.js';

let dir: string;
let ctx: ToolContext;
// A name the model could create, and a pattern that backtracks on it: a regex glob tries ~C(200, 6) splits.
const NAME = 'a'.repeat(200);
const HOSTILE = '*a*a*a*a*a*a*b';

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-glob-hostile-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
  await fs.mkdir(path.join(dir, 'src'));
  await fs.writeFile(path.join(dir, 'src', NAME), 'needle\n');
  await fs.writeFile(path.join(dir, 'src', 'ok.ts'), 'needle\n');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe.each(SEARCH_PATHS)('on the %s path', (_path, ripgrep) => {
  useSearchPath(ripgrep);

  describe('hostile glob patterns', () => {
    it('glob answers at once instead of backtracking', async () => {
      const none = await createGlobTool().call({ pattern: `**/${HOSTILE}` }, ctx);
      expect(none.content).toBe(`No files match "**/${HOSTILE}" in ..`);
      const hit = await createGlobTool().call({ pattern: '**/*a*a*a*a*a*a*' }, ctx);
      expect(hit.content).toBe(`src/${NAME}`);
    });

    it("grep's glob filter answers at once instead of backtracking", async () => {
      const r = await createGrepTool().call({ pattern: 'needle', glob: HOSTILE }, ctx);
      expect(r.content).toContain('No matches');
      const hit = await createGrepTool().call({ pattern: 'needle', glob: '*.{ts,js}' }, ctx);
      expect(hit.content).toBe('src/ok.ts');
    });

    it('says which glob syntax is not supported', async () => {
      const g = await createGlobTool().call({ pattern: '**/@(a|b).ts' }, ctx);
      expect(g.isError).toBe(true);
      expect(g.content).toContain('extglob');
      const r = await createGrepTool().call({ pattern: 'needle', glob: '+(x).ts' }, ctx);
      expect(r.isError).toBe(true);
      expect(r.content).toContain('extglob');
    });
  });
});
