import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli-args.js';
import { sandboxSettingsFrom } from '../../../src/sandbox/sandbox-settings.js';
import { setUpSandbox } from '../../../src/sandbox/sandbox-startup.js';

let root: string;
let ws: string;
let cairnHome: string;
let claudeHome: string;
const closers: (() => void)[] = [];

async function write(file: string, data: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(data));
}

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-sandbox-settings-')));
  ws = path.join(root, 'ws');
  cairnHome = path.join(root, 'cairn-home');
  claudeHome = path.join(root, 'claude-home');
  await fs.mkdir(ws);
});
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await fs.rm(root, { recursive: true, force: true });
});

async function startUp(extra: { flag?: boolean; available?: boolean } = {}) {
  const result = await setUpSandbox({
    cwd: ws,
    cairnHome,
    env: { CLAUDE_CONFIG_DIR: claudeHome },
    ...(extra.flag !== undefined ? { flag: extra.flag } : {}),
    probe: async () => (extra.available === false ? { available: false, reason: 'bubblewrap is not installed' } : { available: true }),
  });
  closers.push(() => result.sandbox.close());
  return result;
}

describe('sandbox settings', () => {
  it('folds the layers: objects per key, arrays concatenated, the more specific file wins for scalars', () => {
    const s = sandboxSettingsFrom([
      { file: 'user.json', data: { sandbox: { enabled: true, autoAllowBashIfSandboxed: false, network: { allowedDomains: ['a.com'] } } } },
      { file: 'project.json', data: { sandbox: { network: { allowedDomains: ['b.com'] }, filesystem: { denyRead: ['secrets'] } } } },
      { file: 'local.json', data: { sandbox: { autoAllowBashIfSandboxed: true, excludedCommands: ['docker *'] } } },
    ]);
    expect(s.enabled).toBe(true);
    expect(s.autoAllowBashIfSandboxed).toBe(true);
    expect(s.network.allowedDomains).toEqual(['a.com', 'b.com']);
    expect(s.filesystem.denyRead).toEqual(['secrets']);
    expect(s.excludedCommands).toEqual(['docker *']);
    expect(s.allowUnsandboxedCommands).toBe(true);
  });

  it('names the file and key of an invalid value', () => {
    expect(() => sandboxSettingsFrom([{ file: '/p/.cairn/settings.json', data: { sandbox: { network: { allowedDomains: 'x.com' } } } }])).toThrow(
      /\/p\/\.cairn\/settings\.json: sandbox\.network\.allowedDomains: /,
    );
    expect(() => sandboxSettingsFrom([{ file: '/u/settings.json', data: { sandbox: { enabled: 'yes' } } }])).toThrow(/\/u\/settings\.json: sandbox\.enabled/);
  });

  it('reads the sandbox key from Claude Code\'s and cairn\'s files; --no-sandbox and --sandbox override enabled', async () => {
    await write(path.join(claudeHome, 'settings.json'), { sandbox: { enabled: true, network: { allowedDomains: ['registry.npmjs.org'] } } });
    const on = await startUp();
    expect(on.sandbox.status().enabled).toBe(true);
    expect(on.sandbox.status().policy.network.allowedDomains).toEqual(['registry.npmjs.org']);
    expect((await startUp({ flag: false })).sandbox.status().enabled).toBe(false);
    await write(path.join(cairnHome, 'settings.json'), { sandbox: { enabled: false } });
    expect((await startUp()).sandbox.status().enabled).toBe(false);
    expect((await startUp({ flag: true })).sandbox.status().enabled).toBe(true);
  });

  it('does not let a project\'s files widen the sandbox, and says so naming the file and key', async () => {
    const project = path.join(ws, '.claude', 'settings.json');
    await write(project, { sandbox: { enabled: true, filesystem: { allowWrite: ['~'] }, network: { allowedDomains: ['evil.example'], allowAllUnixSockets: true }, excludedCommands: ['curl'] } });
    const { sandbox, notices } = await startUp();
    const s = sandbox.status();
    expect(s.enabled).toBe(true); // turning it on only narrows
    expect(s.policy.writable).not.toContain(os.homedir());
    expect(s.policy.network.allowedDomains).toEqual([]);
    expect(s.settings.excludedCommands).toEqual([]);
    expect(s.settings.network.allowAllUnixSockets).toBeUndefined();
    // Nor switch off a sandbox the user turned on.
    await write(path.join(claudeHome, 'settings.json'), { sandbox: { enabled: true } });
    await write(path.join(ws, '.cairn', 'settings.local.json'), { sandbox: { enabled: false } });
    const off = await startUp();
    expect(off.sandbox.status().enabled).toBe(true);
    expect(off.notices).toEqual(expect.arrayContaining([expect.stringContaining('settings.local.json: sandbox.enabled is ignored')]));
    expect(notices).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`${project}: sandbox.filesystem.allowWrite is ignored`),
        expect.stringContaining(`${project}: sandbox.network.allowedDomains is ignored`),
        expect.stringContaining(`${project}: sandbox.excludedCommands is ignored`),
        expect.stringContaining(`${project}: sandbox.network.allowAllUnixSockets is ignored`),
      ]),
    );
  });

  it('does not let a project\'s permissions.additionalDirectories make a folder writable in the sandbox', async () => {
    const outside = path.join(root, 'outside');
    const project = path.join(ws, '.claude', 'settings.json');
    await write(project, { permissions: { additionalDirectories: ['~', outside] }, sandbox: { enabled: true } });
    const { sandbox, notices } = await startUp();
    expect(sandbox.status().policy.writable).not.toContain(os.homedir());
    expect(sandbox.status().policy.writable).not.toContain(outside);
    expect(notices).toEqual(expect.arrayContaining([expect.stringContaining(`${project}: permissions.additionalDirectories is ignored`)]));
    // The user's own settings still add a writable folder.
    await write(path.join(claudeHome, 'settings.json'), { permissions: { additionalDirectories: [outside] } });
    expect((await startUp()).sandbox.status().policy.writable).toContain(outside);
  });

  it('says once at start that the sandbox is unavailable, and what happens instead', async () => {
    await write(path.join(cairnHome, 'settings.json'), { sandbox: { enabled: true } });
    const soft = await startUp({ available: false });
    expect(soft.notices).toEqual([expect.stringContaining('bash commands run without it')]);
    expect(await soft.sandbox.prepare('true')).toMatchObject({ sandboxed: false });
    await write(path.join(cairnHome, 'settings.json'), { sandbox: { enabled: true, failIfUnavailable: true } });
    const strict = await startUp({ available: false });
    expect(strict.notices).toEqual([expect.stringContaining('will not run')]);
    expect(await strict.sandbox.prepare('true')).toEqual({ refuse: expect.stringContaining('bubblewrap is not installed') });
  });

  it('with no settings, the sandbox is on and lets workspace commands run unasked; where it cannot run, one notice says why and commands are asked', async () => {
    const on = await startUp();
    expect(on.sandbox.status().settings.containUnasked).toBe(true);
    expect(on.sandbox.status().enabled).toBe(true);
    expect(on.sandbox.autoAllow()).toBe(true);
    expect(on.notices).toEqual([]);
    const none = await startUp({ available: false });
    expect(none.notices).toEqual(['The sandbox is unavailable (bubblewrap is not installed), so bash commands that may write or connect are asked about; set sandbox.enabled: false in your settings to stop this notice.']);
    expect(none.sandbox.autoAllow()).toBe(false);
    expect(await none.sandbox.prepare('true')).toMatchObject({ sandboxed: false });
    // A project's settings cannot switch containment off; the user's can.
    await write(path.join(ws, '.claude', 'settings.json'), { sandbox: { enabled: false } });
    expect((await startUp()).sandbox.status().settings.containUnasked).toBe(true);
    expect((await startUp()).sandbox.status().enabled).toBe(true);
    await write(path.join(cairnHome, 'settings.json'), { sandbox: { enabled: false } });
    expect((await startUp()).sandbox.status().settings.containUnasked).toBe(false);
    expect((await startUp()).sandbox.status().enabled).toBe(false);
    expect((await startUp({ available: false })).notices).not.toEqual(expect.arrayContaining([expect.stringContaining('unavailable')]));
  });

  it('the first interactive start says in one line that the sandbox is on, once per cairn home; not when settings chose it, nor where it cannot run', async () => {
    const introduce = async (available = true) => {
      const result = await setUpSandbox({
        cwd: ws,
        cairnHome,
        env: { CLAUDE_CONFIG_DIR: claudeHome },
        introduce: true,
        probe: async () => (available ? { available: true } : { available: false, reason: 'bubblewrap is not installed' }),
      });
      closers.push(() => result.sandbox.close());
      return result.notices;
    };
    expect(await introduce(false)).toEqual([expect.stringContaining('The sandbox is unavailable')]);
    const first = await introduce();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^The sandbox is on: .*\/sandbox explains/);
    expect(first[0]).not.toContain('\n');
    expect(await introduce()).toEqual([]);
    expect((await startUp()).notices).toEqual([]);
  });

  it('parses --sandbox and --no-sandbox', () => {
    expect(parseCliArgs(['--sandbox']).sandbox).toBe(true);
    expect(parseCliArgs(['--no-sandbox']).sandbox).toBe(false);
    expect(parseCliArgs([]).sandbox).toBeUndefined();
  });

  it('makes no directory for a session that runs nothing in the sandbox', async () => {
    const before = (await fs.readdir(os.tmpdir())).filter((n) => n.startsWith('cairn-sandbox-')).length;
    const { sandbox } = await startUp({ flag: false });
    expect(await sandbox.prepare('true')).toMatchObject({ sandboxed: false });
    const after = (await fs.readdir(os.tmpdir())).filter((n) => n.startsWith('cairn-sandbox-')).length;
    expect(after).toBeLessThanOrEqual(before);
  });
});
