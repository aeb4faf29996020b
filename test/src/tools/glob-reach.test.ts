import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createGlobTool } from '../../../src/tools/glob.js';
import { resolveInWorkspace } from '../../../src/tools/paths.js';
import type { ToolContext } from '../../../src/tools/tool.js';

let root: string;
let ws: string;
let outside: string;
let ctx: ToolContext;
const tool = createGlobTool();

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-glob-reach-')));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  await fs.mkdir(path.join(ws, 'src', 'deep'), { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(ws, 'src', 'a.ts'), '');
  await fs.writeFile(path.join(ws, 'src', 'deep', 'b.ts'), '');
  await fs.writeFile(path.join(outside, 'x'), '');
  await fs.writeFile(path.join(root, 'top.txt'), '');
  ctx = { cwd: ws, signal: new AbortController().signal };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function checker() {
  return createPermissionChecker({
    workspace: ws,
    mode: 'default',
    rules: { allow: [], ask: [], deny: [] },
    cairnHome: path.join(root, 'home', '.cairn'),
    homeDir: path.join(root, 'home'),
  });
}

const leaving = [
  { pattern: '../*' },
  { pattern: '../outside/*' },
  { pattern: 'src/../../*' },
  { pattern: 'src/../../outside/**' },
  { pattern: '~/*' },
  { pattern: '/root/.*' },
  { pattern: '/*' },
  { pattern: '../../*', path: 'src' },
];
// Where these land is only known during the search: the tool refuses them before touching anything.
const unknowable = [{ pattern: '**/../../outside/x' }, { pattern: '*/../../outside/x' }, { pattern: '{..,src}/*' }, { pattern: '..' }, { pattern: 'src/@(..)/*' }, { pattern: 'src/{a/..,b}/../../x' }];

function inside(dir: string, abs: string): boolean {
  const rel = path.relative(dir, abs);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

describe('glob patterns that leave the workspace', () => {
  it.each(leaving)('%o is not allowed without asking', async (input) => {
    const verdict = await checker().check(tool, input);
    expect(verdict.behavior).not.toBe('allow');
  });

  it.each(unknowable)('%o is refused before anything is listed', async (input) => {
    const r = await tool.call(input, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('".."');
    expect(r.content).toContain('Put the directory in path instead');
  });

  it.each([...leaving, ...unknowable])('%o never returns a file outside the places the check judged', async (input) => {
    const judged = (tool.paths?.(input) ?? []).map((p) => resolveInWorkspace(ws, p));
    const r = await tool.call(input, ctx);
    const listed = r.isError ? [] : r.content.split('\n\n')[0]!.split('\n').filter((l) => l !== '' && !l.startsWith('No files'));
    for (const line of listed) {
      const abs = path.resolve(ws, line);
      expect(judged.some((dir) => inside(dir, abs)), `${line} outside ${judged.join(', ')}`).toBe(true);
    }
  });

  it('lists the parent directory only through a pattern the check was asked about', async () => {
    expect(tool.paths?.({ pattern: '../outside/*' })).toContain('../outside');
    const r = await tool.call({ pattern: '../outside/*' }, ctx);
    expect(r.content).toBe(path.join(outside, 'x'));
  });

});

describe('glob patterns inside the workspace', () => {
  it.each([
    { pattern: '**/*.ts' },
    { pattern: 'src/*.ts' },
    { pattern: 'src/../src/**/*.ts' },
    { pattern: '*.ts', path: 'src' },
    { pattern: '../*', path: 'src' },
    { pattern: `${'x'}/../src/*.ts` },
  ])('%o is allowed as a read inside the workspace', async (input) => {
    expect((await checker().check(tool, input)).behavior).toBe('allow');
  });

  it('an absolute pattern into the workspace is allowed and finds the files', async () => {
    const input = { pattern: `${ws}/src/**/*.ts` };
    expect((await checker().check(tool, input)).behavior).toBe('allow');
    expect((await tool.call(input, ctx)).content.split('\n').sort()).toEqual(['src/a.ts', 'src/deep/b.ts']);
  });
});
