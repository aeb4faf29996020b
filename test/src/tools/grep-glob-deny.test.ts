import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createGlobTool } from '../../../src/tools/glob.js';
import { createGrepTool } from '../../../src/tools/grep.js';
import { createListDirTool } from '../../../src/tools/list-dir.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { SEARCH_PATHS, useSearchPath } from '../../helpers/search-paths.js';

let root: string;
let ws: string;
let ctx: ToolContext;

async function put(rel: string, content: string): Promise<void> {
  const abs = path.join(ws, rel);
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.writeFile(abs, content);
}

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-deny-')));
  ws = path.join(root, 'ws');
  await put('.env', 'SECRET=hunter2\n');
  await put('secrets/key.pem', 'SECRET key\n');
  await put('src/app.ts', 'const SECRET = process.env.SECRET;\n');
  await fs.symlink(path.join(ws, '.env'), path.join(ws, 'src', 'env-link'));
  // The rules as the loop fills them in: the permission checker's Read deny rules, in bypass mode.
  const checker = createPermissionChecker({
    workspace: ws,
    mode: 'bypassPermissions',
    rules: { allow: [], ask: [], deny: ['Read(./.env)', 'Read(./secrets/**)'] },
    cairnHome: path.join(root, 'home', '.cairn'),
    homeDir: path.join(root, 'home'),
  });
  ctx = { cwd: ws, signal: new AbortController().signal, isReadDenied: await checker.readDeniedMatcher() };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe.each(SEARCH_PATHS)('on the %s path', (_path, ripgrep) => {
  useSearchPath(ripgrep);

  describe('Read deny rules in grep', () => {
    it.each(['files_with_matches', 'content', 'count'] as const)('leave denied files out in %s mode and say how many', async (mode) => {
      const r = await createGrepTool().call({ pattern: 'SECRET', output_mode: mode }, ctx);
      expect(r.isError).toBeFalsy();
      expect(r.content).not.toContain('hunter2');
      expect(r.content).not.toMatch(/^(\.env|secrets\/key\.pem|src\/env-link)\b/m);
      expect(r.content).toContain('src/app.ts');
      expect(r.content).toContain('(3 files were left out by Read deny rules.)');
    });

    it('refuses a denied file named directly', async () => {
      const r = await createGrepTool().call({ pattern: 'SECRET', path: '.env', output_mode: 'content' }, ctx);
      expect(r.isError).toBe(true);
      expect(r.content).not.toContain('hunter2');
      expect(r.content).toContain('Read deny rule');
    });

    it('says so when every candidate was denied', async () => {
      const r = await createGrepTool().call({ pattern: 'hunter2', path: 'secrets' }, ctx);
      expect(r.content).toContain('No matches');
      expect(r.content).toContain('(1 file was left out by Read deny rules.)');
    });
  });

  describe('grep and symlinks', () => {
    it('does not follow a symlink out of the workspace while walking, and says it skipped it', async () => {
      await fs.writeFile(path.join(root, 'outside.txt'), 'SECRET from outside\n');
      await fs.symlink(path.join(root, 'outside.txt'), path.join(ws, 'src', 'out-link'));
      const r = await createGrepTool().call({ pattern: 'from outside', output_mode: 'content' }, { ...ctx, isReadDenied: undefined });
      expect(r.content).not.toContain('SECRET from outside');
      expect(r.content).toContain('(1 symlink leading outside the workspace was skipped.)');
    });
  });

  describe('Read deny rules in glob and list_dir', () => {
    it('glob does not list denied files and says how many it left out', async () => {
      const r = await createGlobTool().call({ pattern: '**/*' }, ctx);
      expect(r.content.split('\n\n')[0]!.split('\n').sort()).toEqual(['src/app.ts']);
      expect(r.content).toContain('(2 files were left out by Read deny rules.)');
      const env = await createGlobTool().call({ pattern: '.env*' }, ctx);
      expect(env.content).not.toMatch(/^\.env$/m);
      expect(env.content).toContain('(1 file was left out by Read deny rules.)');
    });

    it('list_dir does not list denied entries and says how many it left out', async () => {
      const r = await createListDirTool().call({}, ctx);
      expect(r.content.split('\n\n')[0]).toBe('src/');
      expect(r.content).toContain('(2 entries were left out by Read deny rules.)');
    });
  });
});
