import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PermissionMode } from '../../../src/events.js';
import type { PermissionRuleSet } from '../../../src/permissions/types.js';
import { defineTool } from '../../../src/tools/tool.js';
import { fakeBashTool, testChecker } from '../../helpers/permission-tools.js';
import type { ToolKind } from '../../../src/tools/tool.js';

const PathInput = z.object({ path: z.string() });

function pathTool(name: string, kind: ToolKind, readOnly: boolean) {
  return defineTool({
    name,
    description: name,
    inputSchema: PathInput,
    kind,
    effects: () => (readOnly ? ('none' as const) : ('world' as const)),
    paths: (input) => [input.path],
    call: async () => ({ content: '' }),
  });
}

const readFileTool = pathTool('read_file', 'read', true);
const grepTool = pathTool('grep', 'read', true);
const writeFileTool = pathTool('write_file', 'edit', false);
const editFileTool = pathTool('edit_file', 'edit', false);
const bashTool = fakeBashTool;
const otherTool = (name: string, readOnly: boolean) =>
  defineTool({ name, description: name, inputSchema: z.object({}), kind: 'other', effects: () => (readOnly ? ('none' as const) : ('world' as const)), call: async () => ({ content: '' }) });

let root: string;
let workspace: string;
let outside: string;
let home: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-perm-')));
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  home = join(root, 'home');
  for (const dir of [workspace, outside, home, join(workspace, 'src'), join(workspace, 'secrets')]) await mkdir(dir, { recursive: true });
  await writeFile(join(outside, 'notes.txt'), 'outside');
  await writeFile(join(workspace, 'secrets', 'key.pem'), 'secret');
  await writeFile(join(workspace, 'src', 'a.ts'), 'a');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function checker(mode: PermissionMode, rules: Partial<PermissionRuleSet> = {}) {
  return testChecker({ workspace, home, cairnHome: join(home, '.cairn') }, mode, rules);
}

describe('decision chain order', () => {
  it('deny rules beat bypassPermissions, for bash and for paths', async () => {
    const c = checker('bypassPermissions', { deny: ['Bash(git push:*)', 'Write(./src/**)'] });
    expect(await c.check(bashTool, { command: 'git push origin main' })).toMatchObject({ behavior: 'deny', reason: expect.stringContaining('Bash(git push:*)') });
    expect((await c.check(writeFileTool, { path: 'src/a.ts' })).behavior).toBe('deny');
    expect((await c.check(writeFileTool, { path: 'b.ts' })).behavior).toBe('allow');
  });

  it('ask rules beat bypassPermissions and allow rules', async () => {
    const c = checker('bypassPermissions', { allow: ['Bash'], ask: ['Bash(npm publish:*)', 'Edit(./src/**)'] });
    expect(await c.check(bashTool, { command: 'npm publish' })).toMatchObject({ behavior: 'ask', reason: expect.stringContaining('npm publish') });
    expect((await c.check(editFileTool, { path: 'src/a.ts' })).behavior).toBe('ask');
  });

  it('the bash safety check beats bypassPermissions and allow rules', async () => {
    const c = checker('bypassPermissions', { allow: ['Bash'] });
    expect((await c.check(bashTool, { command: 'sudo rm x' })).behavior).toBe('deny');
    expect((await c.check(bashTool, { command: 'npm install' })).behavior).toBe('allow');
  });

  it('bypassPermissions allows what no rule stops, even outside the workspace', async () => {
    const c = checker('bypassPermissions');
    expect((await c.check(writeFileTool, { path: join(outside, 'x') })).behavior).toBe('allow');
    expect((await c.check(bashTool, { command: 'echo x > /tmp/y' })).behavior).toBe('allow');
  });

  it('allow rules come before plan mode', async () => {
    const c = checker('plan', { allow: ['Bash(git status:*)'] });
    expect((await c.check(bashTool, { command: 'git status' })).behavior).toBe('allow');
    expect((await c.check(bashTool, { command: 'git commit -m x' })).behavior).toBe('deny');
  });
});

describe('modes', () => {
  it('plan denies writes and commands that change things but allows reads in the workspace', async () => {
    const c = checker('plan');
    expect(await c.check(editFileTool, { path: 'src/a.ts' })).toMatchObject({ behavior: 'deny', reason: expect.stringContaining('plan mode') });
    expect((await c.check(writeFileTool, { path: join(outside, 'x') })).behavior).toBe('deny');
    expect((await c.check(bashTool, { command: 'touch x' })).behavior).toBe('deny');
    expect((await c.check(bashTool, { command: 'ls' })).behavior).toBe('allow');
    expect((await c.check(otherTool('deploy', false), {})).behavior).toBe('deny');
    expect((await c.check(readFileTool, { path: 'src/a.ts' })).behavior).toBe('allow');
  });

  it('acceptEdits allows edits inside the workspace and asks outside it', async () => {
    const c = checker('acceptEdits');
    expect((await c.check(editFileTool, { path: 'src/a.ts' })).behavior).toBe('allow');
    expect((await c.check(writeFileTool, { path: 'new/dir/file.ts' })).behavior).toBe('allow');
    const out = await c.check(writeFileTool, { path: join(outside, 'notes.txt') });
    expect(out).toMatchObject({ behavior: 'ask', reason: expect.stringContaining('outside the workspace') });
    expect((await c.check(editFileTool, { path: '../outside/notes.txt' })).behavior).toBe('ask');
    expect((await c.check(bashTool, { command: 'npm test' })).behavior).toBe('ask');
    expect((await c.check(bashTool, { command: 'ls' })).behavior).toBe('allow'); // read-only, in the workspace
    expect((await c.check(otherTool('deploy', false), {})).behavior).toBe('ask');
  });

  it('acceptEdits does not let the agent edit cairn\'s own configuration', async () => {
    const c = checker('acceptEdits');
    expect((await c.check(writeFileTool, { path: '.cairn/settings.local.json' })).behavior).toBe('ask');
    expect((await c.check(writeFileTool, { path: '.cairn/settings.json' })).behavior).toBe('ask');
    expect((await c.check(writeFileTool, { path: '.cairn/agents/helper.md' })).behavior).toBe('ask');
    expect((await c.check(writeFileTool, { path: 'notes/cairn.md' })).behavior).toBe('allow');
  });

  it('default mode asks for edits and suggests a rule scoped to the workspace, or to the folder', async () => {
    const result = await checker('default').check(editFileTool, { path: 'src/a.ts' });
    expect(result).toEqual({
      behavior: 'ask',
      reason: expect.stringContaining('src/a.ts') as string,
      suggestions: ['edit_file(./**)'],
      folder: ['edit_file(./src/**)'],
    });
    const atRoot = await checker('default').check(editFileTool, { path: 'a.ts' });
    expect(atRoot).toEqual({ behavior: 'ask', reason: expect.any(String) as string, suggestions: ['edit_file(./**)'] });
  });

  it('setMode changes the decisions that follow', async () => {
    const c = checker('default');
    c.setMode('acceptEdits');
    expect(c.mode).toBe('acceptEdits');
    expect((await c.check(editFileTool, { path: 'src/a.ts' })).behavior).toBe('allow');
  });
});

describe('read-only tools and the workspace boundary', () => {
  it('allows read-only tools inside the workspace, asks outside with a scoped suggestion', async () => {
    const c = checker('default');
    expect(await c.check(readFileTool, { path: 'src/a.ts' })).toEqual({ behavior: 'allow', reason: 'read-only' });
    expect((await c.check(otherTool('web_fetch', true), {})).behavior).toBe('allow');
    const out = await c.check(readFileTool, { path: join(outside, 'notes.txt') });
    expect(out).toEqual({
      behavior: 'ask',
      reason: expect.stringContaining('outside the workspace') as string,
      suggestions: [`read_file(/${outside}/notes.txt)`],
      folder: [`read_file(/${outside}/**)`],
    });
    const inHome = await c.check(grepTool, { path: home });
    expect(inHome).toMatchObject({ behavior: 'ask', suggestions: ['grep(~/**)'] });
  });

  it('an explicit allow rule lets a path outside the workspace through', async () => {
    const c = checker('default', { allow: [`Read(${outside}/**)`, 'Edit(~/notes/**)'] });
    expect((await c.check(readFileTool, { path: join(outside, 'notes.txt') })).behavior).toBe('allow');
    expect((await c.check(grepTool, { path: outside })).behavior).toBe('allow'); // Read(path) covers every read tool
    expect((await c.check(writeFileTool, { path: join(home, 'notes', 'a.md') })).behavior).toBe('allow'); // Edit(path) covers every edit tool
    expect((await c.check(writeFileTool, { path: join(home, 'other.md') })).behavior).toBe('ask');
  });

  it('asks for a symlink inside the workspace that points outside it', async () => {
    await symlink(outside, join(workspace, 'link'));
    await symlink(join(outside, 'notes.txt'), join(workspace, 'notes-link.txt'));
    const c = checker('acceptEdits');
    for (const path of ['link/notes.txt', 'notes-link.txt', 'link/new-file.txt', 'link/../outside/notes.txt']) {
      expect(await c.check(readFileTool, { path }), path).toMatchObject({ behavior: 'ask', reason: expect.stringContaining('outside the workspace') });
      expect((await c.check(writeFileTool, { path })).behavior, path).toBe('ask');
    }
  });

  it('a relative rule does not follow a symlink out of the workspace, but a deny catches either spelling', async () => {
    await symlink(outside, join(workspace, 'src', 'out'));
    await symlink(join(workspace, 'secrets'), join(workspace, 'public'));
    const c = checker('default', { allow: ['Edit(./src/**)'], deny: ['Read(./secrets/**)'] });
    expect((await c.check(editFileTool, { path: 'src/a.ts' })).behavior).toBe('allow');
    expect((await c.check(editFileTool, { path: 'src/out/notes.txt' })).behavior).toBe('ask');
    expect((await c.check(readFileTool, { path: 'public/key.pem' })).behavior).toBe('deny');
    expect((await c.check(grepTool, { path: 'secrets' })).behavior).toBe('deny');
  });
});

describe('rules and suggestions', () => {
  it('bare rules cover every use of one tool', async () => {
    const c = checker('default', { allow: ['write_file', 'deploy'] });
    expect((await c.check(writeFileTool, { path: 'src/new.ts' })).behavior).toBe('allow');
    // ...inside the workspace only: a write outside needs a rule that names the place.
    expect((await c.check(writeFileTool, { path: join(outside, 'x') })).behavior).toBe('ask');
    expect((await c.check(editFileTool, { path: 'src/a.ts' })).behavior).toBe('ask');
    expect((await c.check(otherTool('deploy', false), {})).behavior).toBe('allow');
    expect(await checker('default').check(otherTool('deploy', false), {})).toMatchObject({ behavior: 'ask', suggestions: ['deploy'] });
  });

  it('suggests one rule per part that is not already allowed', async () => {
    const c = checker('default', { allow: ['Bash(git status:*)'] });
    const result = await c.check(bashTool, { command: 'git status && npm run test -- --watch && ls -la src | git status' });
    expect(result).toEqual({
      behavior: 'ask',
      reason: expect.stringContaining('"npm run test -- --watch"') as string,
      suggestions: ['bash(npm run test:*)'], // ls -la src is read-only: it needs no rule
    });
    expect(result.reason).not.toContain('"git status"');
  });

  it('session rules stop the asking, and show in rules()', async () => {
    const c = checker('default', { allow: ['Read'] });
    const first = await c.check(bashTool, { command: 'git diff HEAD; npm test' });
    expect(first.behavior).toBe('ask');
    c.addSessionRules(first.behavior === 'ask' ? first.suggestions : []);
    expect((await c.check(bashTool, { command: 'git diff HEAD~2; npm test --silent' })).behavior).toBe('allow');
    expect(c.rules()).toMatchObject({ allow: ['Read', 'bash(npm test:*)'], ask: [], deny: [] });
  });

  it('saveProjectRules applies the rules now and writes them to settings.local.json', async () => {
    const c = checker('default');
    await c.saveProjectRules(['bash(git log:*)']);
    expect((await c.check(bashTool, { command: 'git log --oneline' })).behavior).toBe('allow');
    const saved = JSON.parse(await readFile(join(workspace, '.cairn', 'settings.local.json'), 'utf8')) as unknown;
    expect(saved).toEqual({ permissions: { allow: ['bash(git log:*)'] } });
  });

  it('refuses a malformed rule instead of running with half the rules', () => {
    expect(() => checker('default', { deny: ['Bash(git push'] })).toThrow(/Bash\(git push.*missing closing/);
    expect(() => checker('default').addSessionRules(['Read('])).toThrow(/missing closing/);
  });
});
