import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { parseRule } from '../../../src/permissions/rules/parse.js';
import { pathSuggestion } from '../../../src/permissions/rules/suggestions.js';
import type { PermissionCheck } from '../../../src/permissions/types.js';
import { defineTool, type ToolKind } from '../../../src/tools/tool.js';

// "Always" on an edit of /tmp/notes.txt offered edit_file(//tmp/**): all of /tmp. The first rule
// offered is the narrowest that covers the call (the file); its folder is only the second choice.

const bases = { workspace: '/work/ws', home: '/home/u' };
const edit = { name: 'edit_file', kind: 'edit' as ToolKind };
const read = { name: 'read_file', kind: 'read' as ToolKind };

describe('the rules offered for a path', () => {
  it.each([
    ['an edit in /tmp', edit, '/tmp/notes.txt', false, { rule: 'edit_file(//tmp/notes.txt)', folder: 'edit_file(//tmp/**)' }],
    ['a read in the home folder', read, '/home/u/notes/todo.md', false, { rule: 'read_file(~/notes/todo.md)', folder: 'read_file(~/notes/**)' }],
    ['a file at the filesystem root', edit, '/notes.txt', false, { rule: 'edit_file(//notes.txt)', folder: 'edit_file(//**)' }],
    ['glob characters in the name', edit, '/tmp/a*b[1].txt', false, { rule: 'edit_file(//tmp/a\\*b\\[1\\].txt)', folder: 'edit_file(//tmp/**)' }],
    ['a folder outside (a grep over it)', { name: 'grep', kind: 'read' as ToolKind }, '/srv/logs', true, { rule: 'grep(//srv/logs/**)' }],
    ['an edit inside the workspace: the workspace, the folder second', edit, '/work/ws/src/a.ts', false, { rule: 'edit_file(./**)', folder: 'edit_file(./src/**)' }],
    ['an edit at the workspace root', edit, '/work/ws/a.ts', false, { rule: 'edit_file(./**)' }],
  ])('%s', (_what, tool, path, isDirectory, expected) => {
    const offered = pathSuggestion(tool, path, isDirectory, bases);
    expect(offered).toEqual(expected);
    for (const rule of [offered.rule, offered.folder ?? offered.rule]) expect(() => parseRule(rule), rule).not.toThrow();
  });
});

const editFileTool = defineTool({
  name: 'edit_file',
  description: 'edit_file',
  inputSchema: z.object({ path: z.string() }),
  kind: 'edit',
  effects: () => 'world' as const,
  paths: (input) => [input.path],
  call: async () => ({ content: '' }),
});
// A tool that changes two files in one call.
const twoPaths = defineTool({
  name: 'multi_edit',
  description: 'multi_edit',
  inputSchema: z.object({ a: z.string(), b: z.string() }),
  kind: 'edit',
  effects: () => 'world' as const,
  paths: (input) => [input.a, input.b],
  call: async () => ({ content: '' }),
});

let root: string;
let workspace: string;
let outside: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-path-rules-')));
  workspace = join(root, 'ws');
  outside = join(root, 'tmp');
  await mkdir(workspace, { recursive: true });
  await mkdir(join(outside, 'deeper'), { recursive: true });
  for (const name of ['notes.txt', 'notes.txt.bak', 'other.txt']) await writeFile(join(outside, name), name);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function checker() {
  return createPermissionChecker({ workspace, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(root, 'home', '.cairn'), homeDir: join(root, 'home') });
}
const asked = (check: PermissionCheck) => (check.behavior === 'ask' ? check : expect.unreachable(`asked, got ${check.behavior}`));

describe('an edit outside the workspace', () => {
  it('offers the file first and its folder second', async () => {
    const check = asked(await checker().check(editFileTool, { path: join(outside, 'notes.txt') }));
    expect(check.suggestions).toEqual([`edit_file(/${outside}/notes.txt)`]);
    expect(check.folder).toEqual([`edit_file(/${outside}/**)`]);
  });

  it('the first rule, remembered, covers that file and nothing beside it', async () => {
    const c = checker();
    c.addSessionRules(asked(await c.check(editFileTool, { path: join(outside, 'notes.txt') })).suggestions);
    expect((await c.check(editFileTool, { path: join(outside, 'notes.txt') })).behavior).toBe('allow');
    for (const other of ['notes.txt.bak', 'other.txt', 'deeper/notes.txt', 'new.txt']) {
      expect((await c.check(editFileTool, { path: join(outside, other) })).behavior, other).toBe('ask');
    }
  });

  it('the second choice, remembered, covers the folder and not its parent', async () => {
    const c = checker();
    c.addSessionRules(asked(await c.check(editFileTool, { path: join(outside, 'notes.txt') })).folder ?? []);
    for (const other of ['other.txt', 'deeper/notes.txt', 'new.txt']) expect((await c.check(editFileTool, { path: join(outside, other) })).behavior, other).toBe('allow');
    expect((await c.check(editFileTool, { path: join(root, 'beside.txt') })).behavior).toBe('ask');
  });

  it('two files in one call: each file first, the folders second', async () => {
    const check = asked(await checker().check(twoPaths, { a: join(outside, 'notes.txt'), b: join(outside, 'deeper', 'x.txt') }));
    expect(check.suggestions).toEqual([`multi_edit(/${outside}/notes.txt)`, `multi_edit(/${outside}/deeper/x.txt)`]);
    expect(check.folder).toEqual([`multi_edit(/${outside}/**)`, `multi_edit(/${outside}/deeper/**)`]);
  });
});
