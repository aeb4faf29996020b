import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookRunner } from '../../src/hooks/hook-runner.js';
import { activePlugins } from '../../src/plugins/active-plugins.js';
import { runPluginCommand } from '../../src/plugins/plugin-command.js';

// docs/guide/add-a-plugin.md: its example marketplace, installed with the commands the page gives.
let base: string;
beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-docs-plugin-')));
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function cairnPlugin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runPluginCommand(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env, cwd: path.resolve('.') });
  return { code, out, err };
}

describe('docs/guide/add-a-plugin.md: the hello-market example', () => {
  it('adds, installs and lists as the page says; its hook blocks git push and lets the rest through', async () => {
    const env = { HOME: base, CAIRN_HOME: path.join(base, 'home') };
    expect((await cairnPlugin(env, 'marketplace', 'add', 'docs/examples/plugins/hello-market')).out).toContain('Added marketplace hello-market (1 plugin: hello)');
    const install = await cairnPlugin(env, 'install', 'hello@hello-market');
    expect(install.out).toContain(`Installed hello@hello-market 1.0.0 in ${path.join(base, 'home', 'plugins', 'cache', 'hello-market', 'hello', '1.0.0')}`);
    const list = await cairnPlugin(env, 'list');
    expect(list.out).toContain('hello@hello-market 1.0.0: enabled');
    expect(list.out).toContain('1 command (/hello:greet); 1 hook event (PreToolUse)');

    const cwd = path.join(base, 'ws');
    await fs.mkdir(cwd);
    const { plugins } = await activePlugins({ cwd, cairnHome: env.CAIRN_HOME, env, trusted: false });
    const runner = createHookRunner({ hooks: () => plugins.flatMap((p) => p.hooks), cwd, env, sessionId: 's', transcriptPath: () => undefined, permissionMode: () => 'default' });
    const push = await runner.run({ event: 'PreToolUse', toolName: 'bash', toolInput: { command: 'git push origin main' }, toolUseId: 't1' });
    expect(push.outcomes[0]?.block).toBe('hello plugin: no pushes from the agent');
    const status = await runner.run({ event: 'PreToolUse', toolName: 'bash', toolInput: { command: 'git status' }, toolUseId: 't2' });
    expect(status.outcomes[0]?.block).toBeUndefined();

    expect((await cairnPlugin(env, 'disable', 'hello')).out).toContain('Disabled hello@hello-market');
    expect((await activePlugins({ cwd, cairnHome: env.CAIRN_HOME, env, trusted: false })).plugins).toEqual([]);
  });
});
