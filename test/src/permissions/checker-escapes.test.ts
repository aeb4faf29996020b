import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PermissionMode } from '../../../src/events.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { defineTool } from '../../../src/tools/tool.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

// Ways a model could get a write out of the workspace or into cairn's configuration: each must ask.
const bashTool = fakeBashTool;

let root: string;
let workspace: string;
let outside: string;
let home: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-escape-')));
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  home = join(root, 'home');
  for (const dir of [workspace, outside, home, join(workspace, 'a', 'b', 'c')]) await mkdir(dir, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const checker = (mode: PermissionMode, allow: string[] = []) =>
  createPermissionChecker({ workspace, mode, rules: { allow, ask: [], deny: [] }, cairnHome: join(home, '.cairn'), homeDir: home });
const ctx = () => ({ cwd: workspace, signal: new AbortController().signal });

describe('symlinks cannot carry a write out of the workspace', () => {
  it('sym/../../F: the check and the write agree on where F lands', async () => {
    await symlink(join(workspace, 'a', 'b', 'c'), join(workspace, 'sym'));
    // Lexically this is outside the workspace (ws/../F); through the link it is ws/a/F. Either way: ask.
    expect((await checker('acceptEdits').check(createWriteFileTool(), { path: 'sym/../../F', content: 'x' })).behavior).toBe('ask');
    // If the user says yes, the file lands where the kernel resolves it, never beside the workspace.
    const result = await createWriteFileTool().call({ path: 'sym/../../F', content: 'x' }, ctx());
    expect(result.isError).not.toBe(true);
    expect(await readFile(join(workspace, 'a', 'F'), 'utf8')).toBe('x');
    await expect(readFile(join(root, 'F'), 'utf8')).rejects.toThrow();
  });

  it('a dangling link to an outside path is judged where the write would create the file', async () => {
    await symlink(join(outside, 'planted.txt'), join(workspace, 'link.txt'));
    for (const mode of ['default', 'acceptEdits'] as const) {
      const verdict = await checker(mode, ['write_file(./**)']).check(createWriteFileTool(), { path: 'link.txt', content: 'x' });
      expect(verdict, mode).toMatchObject({ behavior: 'ask', reason: expect.stringContaining('outside the workspace') as string });
    }
    // The same through a shell redirect under an allow rule for echo.
    const viaBash = await checker('acceptEdits', ['Bash(echo:*)']).check(bashTool, { command: 'echo x > link.txt' });
    expect(viaBash.behavior).toBe('ask');
  });

  it('a chain of dangling links is followed to its end, and a loop is refused, not spun on', async () => {
    await symlink(join(workspace, 'hop2'), join(workspace, 'hop1'));
    await symlink(join(outside, 'end.txt'), join(workspace, 'hop2'));
    expect((await checker('acceptEdits').check(createWriteFileTool(), { path: 'hop1', content: 'x' })).behavior).toBe('ask');
    await symlink(join(workspace, 'loop2'), join(workspace, 'loop1'));
    await symlink(join(workspace, 'loop1'), join(workspace, 'loop2'));
    expect((await checker('acceptEdits').check(createWriteFileTool(), { path: 'loop1', content: 'x' })).behavior).toBe('ask');
  });

  it('edit_file opens the same resolved file the check judged', async () => {
    await writeFile(join(workspace, 'a', 'target.txt'), 'old\n');
    await symlink(join(workspace, 'a', 'b', 'c'), join(workspace, 'sym'));
    const result = await createEditFileTool().call({ path: 'sym/../../target.txt', old_string: 'old', new_string: 'new' }, ctx());
    expect(result.isError).not.toBe(true);
    expect(await readFile(join(workspace, 'a', 'target.txt'), 'utf8')).toBe('new\n');
  });
});

describe('rules reach only as far as they say', () => {
  it('a bare or workspace rule saved from an in-workspace approval never covers a write outside', async () => {
    const target = join(outside, 'x.txt');
    for (const rule of ['write_file', 'write_file(./**)', 'Edit(**)', 'Write', 'edit_file']) {
      for (const mode of ['default', 'acceptEdits'] as const) {
        expect((await checker(mode, [rule]).check(createWriteFileTool(), { path: target, content: 'x' })).behavior, `${rule} ${mode}`).toBe('ask');
      }
    }
    // A rule that names the place does reach it.
    expect((await checker('default', [`write_file(${outside}/**)`]).check(createWriteFileTool(), { path: target, content: 'x' })).behavior).toBe('allow');
    // Only bypassPermissions goes outside without a rule.
    expect((await checker('bypassPermissions').check(createWriteFileTool(), { path: target, content: 'x' })).behavior).toBe('allow');
  });

  it('protected paths ask in every mode but bypass, whatever rule allows them', async () => {
    const targets = ['.git/hooks/pre-commit', '.git/config', '.cairn/settings.json', '.cairn/settings.local.json', '.claude/settings.json',
      '.claude/settings.local.json', '.hooks.json', '.mcp.json', '.bashrc', 'sub/.zshrc', '.envrc', '.npmrc', '.gitattributes', '.husky/pre-commit',
      '.claude/agents/evil.md', '~/.ssh/authorized_keys', '~/.bashrc', '~/.profile', '~/.gitconfig'];
    for (const path of targets) {
      for (const [mode, allow] of [['default', ['write_file', 'Edit(**)', 'write_file(~/**)']], ['acceptEdits', []], ['acceptEdits', ['write_file']]] as const) {
        const verdict = await checker(mode, [...allow]).check(createWriteFileTool(), { path, content: 'x' });
        expect(verdict.behavior, `${path} ${mode} ${allow.join(',')}`).toBe('ask');
        // Nothing to remember: an "always" answer must not be able to open a protected path for good.
        expect(verdict.behavior === 'ask' && verdict.suggestions, path).toEqual([]);
      }
      expect((await checker('bypassPermissions').check(createWriteFileTool(), { path, content: 'x' })).behavior, path).toBe('allow');
      expect((await checker('plan').check(createWriteFileTool(), { path, content: 'x' })).behavior, path).toBe('deny');
    }
  });

  it('a protected path reached through a symlink is still protected', async () => {
    await mkdir(join(workspace, '.git', 'hooks'), { recursive: true });
    await symlink(join(workspace, '.git', 'hooks'), join(workspace, 'innocent'));
    expect((await checker('acceptEdits', ['write_file']).check(createWriteFileTool(), { path: 'innocent/pre-commit', content: 'x' })).behavior).toBe('ask');
  });

  it('reading a protected file is not a change: reads stay allowed', async () => {
    await mkdir(join(workspace, '.git'), { recursive: true });
    const readTool = defineTool({ name: 'read_file', description: '', inputSchema: z.object({ path: z.string() }), kind: 'read', effects: () => 'none' as const, paths: (i) => [i.path], call: async () => ({ content: '' }) });
    expect((await checker('default').check(readTool, { path: '.git/config' })).behavior).toBe('allow');
  });
});

describe('built-in deny rules', () => {
  it('are listed for /rules, and a setting (never a mode) lifts one', () => {
    const all = checker('bypassPermissions').rules().builtin;
    expect(all).toEqual(['Bash(rm -r*) (built-in)', 'Bash(sudo|doas|su *) (built-in)']);
    const lifted = createPermissionChecker({
      workspace, mode: 'bypassPermissions', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(home, '.cairn'), homeDir: home, liftedBuiltinDeny: ['sudo'],
    });
    expect(lifted.rules().builtin).toEqual(['Bash(rm -r*) (built-in)']);
  });
});

describe('hard links', () => {
  it('a file hard-linked to a protected file (by an allowed ln, say) is protected too', async () => {
    const { link } = await import('node:fs/promises');
    await mkdir(join(workspace, '.git'), { recursive: true });
    await writeFile(join(workspace, '.git', 'config'), '[core]\n');
    await link(join(workspace, '.git', 'config'), join(workspace, 'notes.txt'));
    for (const [mode, allow] of [['acceptEdits', []], ['default', ['write_file(./**)']]] as const) {
      const verdict = await checker(mode, [...allow]).check(createWriteFileTool(), { path: 'notes.txt', content: 'x' });
      expect(verdict, mode).toMatchObject({ behavior: 'ask', reason: expect.stringContaining('hard link') as string, suggestions: [] });
    }
    // An ordinary file is unaffected.
    await writeFile(join(workspace, 'plain.txt'), 'x');
    expect((await checker('acceptEdits').check(createWriteFileTool(), { path: 'plain.txt', content: 'y' })).behavior).toBe('allow');
  });
});
