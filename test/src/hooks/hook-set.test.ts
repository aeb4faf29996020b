import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookRunner } from '../../../src/hooks/hook-runner.js';
import { createHookSet, loadHooks } from '../../../src/hooks/hook-set.js';
import { hookWorkspace, script } from '../../helpers/hook-rig.js';

let root: string;
let workspace: string;
let cairnHome: string;
let claudeHome: string;
beforeEach(async () => {
  root = await hookWorkspace();
  workspace = path.join(root, 'ws');
  cairnHome = path.join(root, 'cairn-home');
  claudeHome = path.join(root, 'home', '.claude');
  for (const d of [workspace, cairnHome, claudeHome, path.join(workspace, '.claude')]) await fs.mkdir(d, { recursive: true });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const writeJson = (file: string, value: unknown) => fs.writeFile(file, JSON.stringify(value, null, 2));
const at = (trusted = true) => ({ workspace, cairnHome, claudeHome, trusted: () => trusted });
const entry = (command: string, matcher?: string) => ({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] });

describe('hooks from every settings file', () => {
  it('a hook in the user file and one in the project file both run; an invalid entry is reported with file and key while the others load', async () => {
    const userFile = path.join(claudeHome, 'settings.json');
    const projectFile = path.join(workspace, '.claude', 'settings.json');
    const cairnFile = path.join(cairnHome, 'settings.json');
    await writeJson(userFile, { hooks: { PreToolUse: [entry('echo user >> log.txt', 'Write')] } });
    await writeJson(projectFile, { hooks: { PreToolUse: [entry('echo project >> log.txt', 'Write'), { matcher: 'Bash', hooks: [{ type: 'command' }] }], Bogus: [] } });
    await writeJson(cairnFile, { hooks: { PostToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'true' }] }] } });
    const loaded = await loadHooks(at());
    expect(loaded.hooks.map((h) => [h.command, h.source])).toEqual([
      ['echo user >> log.txt', userFile],
      ['echo project >> log.txt', projectFile],
    ]);
    expect(loaded.problems).toEqual([
      expect.stringContaining(`${cairnFile}: hooks.PostToolUse[0].matcher: "matcher" is not a valid regular expression`),
      `${projectFile}: hooks.PreToolUse[1].hooks[0].command: expected a non-empty string; this hook is not loaded`,
      expect.stringContaining(`${projectFile}: hooks.Bogus: unknown event`),
    ]);
    const runner = createHookRunner({ hooks: () => loaded.hooks, cwd: workspace, env: process.env });
    await runner.run({ event: 'PreToolUse', toolName: 'write_file', toolInput: { path: 'a', content: '' } });
    expect((await fs.readFile(path.join(workspace, 'log.txt'), 'utf8')).split('\n').filter(Boolean).sort()).toEqual(['project', 'user']);
  });

  it("only the user's own files' hooks count as the user's (what a PermissionRequest hook's updatedPermissions may do depends on it)", async () => {
    await writeJson(path.join(claudeHome, 'settings.json'), { hooks: { PermissionRequest: [entry('claude-user')] } });
    await writeJson(path.join(cairnHome, 'settings.json'), { hooks: { PermissionRequest: [entry('cairn-user')] } });
    await writeJson(path.join(workspace, '.claude', 'settings.json'), { hooks: { PermissionRequest: [entry('project')] } });
    await writeJson(path.join(workspace, '.claude', 'settings.local.json'), { hooks: { PermissionRequest: [entry('local')] } });
    await writeJson(path.join(workspace, '.hooks.json'), { PreToolUse: [{ command: 'dot-hooks' }] });
    const loaded = await loadHooks(at());
    expect(Object.fromEntries(loaded.hooks.map((h) => [h.command, h.userOwned === true]))).toEqual({ 'claude-user': true, 'cairn-user': true, project: false, local: false, 'dot-hooks': false });
  });

  it("an untrusted folder's hooks (settings and .hooks.json) wait; the user's own run", async () => {
    await writeJson(path.join(claudeHome, 'settings.json'), { hooks: { Stop: [entry('true')] } });
    await writeJson(path.join(workspace, '.claude', 'settings.json'), { hooks: { PreToolUse: [entry('evil')] } });
    await writeJson(path.join(workspace, '.hooks.json'), { PreToolUse: [{ command: 'evil too' }] });
    const loaded = await loadHooks(at(false));
    expect(loaded.hooks.map((h) => h.command)).toEqual(['true']);
    expect(loaded.notes).toEqual([
      `${path.join(workspace, '.claude', 'settings.json')}: hooks wait until you trust this folder`,
      `${path.join(workspace, '.hooks.json')}: hooks wait until you trust this folder`,
    ]);
  });

  it('disableAllHooks in a settings file turns every hook off', async () => {
    await writeJson(path.join(claudeHome, 'settings.json'), { hooks: { Stop: [entry('true')] }, disableAllHooks: true });
    const loaded = await loadHooks(at());
    expect(loaded.hooks).toEqual([]);
    expect(loaded.notes[0]).toContain('disableAllHooks');
  });

  it('an untrusted folder cannot switch off the user\'s hooks (a guard on .env edits) with disableAllHooks', async () => {
    await writeJson(path.join(claudeHome, 'settings.json'), { hooks: { PreToolUse: [entry('./guard-env.sh', 'Edit|Write')] } });
    for (const file of ['.claude/settings.json', '.claude/settings.local.json', '.cairn/settings.json']) {
      await fs.mkdir(path.dirname(path.join(workspace, file)), { recursive: true });
      await writeJson(path.join(workspace, file), { disableAllHooks: true });
    }
    const untrusted = await loadHooks(at(false));
    expect(untrusted.hooks.map((h) => h.command)).toEqual(['./guard-env.sh']);
    // Once the user trusts the folder, its choice applies, as in Claude Code.
    expect((await loadHooks(at(true))).hooks).toEqual([]);
  });
});

describe('.hooks.json', () => {
  it('loads with cairn event names (RoundEnd is Stop) and a 30 s default timeout; an empty .hooks.disabled turns it off', async () => {
    await writeJson(path.join(workspace, '.hooks.json'), { PreToolUse: [{ matcher: 'write_file', command: './scan.sh' }], RoundEnd: [{ command: './summary.sh', timeout: 5 }] });
    const loaded = await loadHooks(at());
    expect(loaded.hooks.map((h) => [h.event, h.timeoutMs, h.format])).toEqual([['PreToolUse', 30_000, 'cairn'], ['Stop', 5_000, 'cairn']]);
    await fs.writeFile(path.join(workspace, '.hooks.disabled'), '');
    const off = await loadHooks(at());
    expect(off.hooks).toEqual([]);
    expect(off.notes).toEqual([expect.stringContaining('.hooks.disabled exists')]);
  });

  it('invalid JSON is reported naming the file; the settings hooks still load', async () => {
    await fs.writeFile(path.join(workspace, '.hooks.json'), '{ nope');
    await writeJson(path.join(claudeHome, 'settings.json'), { hooks: { Stop: [entry('true')] } });
    const loaded = await loadHooks(at());
    expect(loaded.hooks).toHaveLength(1);
    expect(loaded.problems).toEqual([expect.stringContaining(`${path.join(workspace, '.hooks.json')}: invalid JSON`)]);
  });

  it('the example file shipped at the repository root loads without problems', async () => {
    const example = await fs.readFile(path.join(import.meta.dirname, '../../../.hooks.json.example'), 'utf8');
    await fs.writeFile(path.join(workspace, '.hooks.json'), example);
    const loaded = await loadHooks(at());
    expect(loaded.problems).toEqual([]);
    expect(new Set(loaded.hooks.map((h) => h.event))).toEqual(new Set(['PreToolUse', 'PostToolUse', 'Stop']));
    const runner = createHookRunner({ hooks: () => loaded.hooks, cwd: workspace, env: process.env });
    const scan = await runner.run({ event: 'PreToolUse', toolName: 'write_file', toolInput: { path: 'k.ts', content: 'const key = "AKIAABCDEFGHIJKLMNOP";' } });
    expect(scan.outcomes[0]?.block).toContain('Secret scan');
    const clean = await runner.run({ event: 'PreToolUse', toolName: 'write_file', toolInput: { path: 'k.ts', content: 'const key = process.env.KEY;' } });
    expect(clean.outcomes).toEqual([expect.not.objectContaining({ block: expect.anything() })]);
    await runner.run({ event: 'PostToolUse', toolName: 'read_file', toolInput: { path: 'a' }, toolResponse: 'x' });
    await runner.run({ event: 'Stop', stopReason: 'end_turn', lastAssistantMessage: 'done' });
    expect(await fs.readFile(path.join(workspace, '.cairn', 'audit.log'), 'utf8')).toMatch(/\tread_file\t\{"path":"a"\}\n$/);
    expect(await fs.readFile(path.join(workspace, '.cairn', 'rounds.log'), 'utf8')).toMatch(/\t\{"stop_reason":"end_turn","last_assistant_text":"done"\}\n$/);
  });
});

describe('switching off and reloading', () => {
  it('/hooks off empties the hooks in force until on; reload picks up a new file', async () => {
    const set = await createHookSet(at());
    expect(set.active()).toEqual([]);
    await writeJson(path.join(workspace, '.claude', 'settings.json'), { hooks: { PreToolUse: [entry(await script(workspace, 'h.sh', 'exit 0'))] } });
    await set.reload();
    expect(set.active()).toHaveLength(1);
    set.setEnabled(false);
    expect(set.active()).toEqual([]);
    expect(set.all()).toHaveLength(1);
    set.setEnabled(true);
    expect(set.active()).toHaveLength(1);
  });
});
