import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createShellManager, type ShellManager } from '../../../src/shells/shell-manager.js';
import { createBashOutputTool } from '../../../src/tools/bash-output.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { createBuiltinTools } from '../../../src/tools/builtin.js';
import { createKillShellTool } from '../../../src/tools/kill-shell.js';
import type { ToolContext } from '../../../src/tools/tool.js';

let dir: string;
let shells: ShellManager;

const ctx = (): ToolContext => ({ cwd: dir, signal: new AbortController().signal });

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-bash-output-')));
  shells = createShellManager({ onEvent: () => {} });
});
afterEach(async () => {
  shells.killAll();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('bash_output and kill_shell', () => {
  it('reads a background command started by bash, then its final status', async () => {
    const bash = createBashTool({ shells });
    const output = createBashOutputTool(shells);
    const started = await bash.call({ command: 'echo hello; exit 4', run_in_background: true }, ctx());
    const id = /Started background shell (\S+)\./.exec(started.content)?.[1] ?? '';
    expect(id).toBe('bash_1');
    await vi.waitFor(() => expect(shells.list()[0]?.status).toBe('failed'), { timeout: 5000 });
    const r = await output.call({ id }, ctx());
    expect(r.content).toBe('hello\n\nStatus: failed (exit code 4)');
    expect((await output.call({ id }, ctx())).content).toBe('(no new output)\n\nStatus: failed (exit code 4)');
  });

  it('says which shells exist when the id is unknown', async () => {
    const output = createBashOutputTool(shells);
    expect(await output.call({ id: 'bash_7' }, ctx())).toMatchObject({
      isError: true,
      content: 'No background shell with id "bash_7". None have been started.',
    });
    shells.start('sleep 5', dir);
    expect((await createKillShellTool(shells).call({ id: 'x' }, ctx())).content).toContain('Known shells: bash_1 (running)');
  });

  it('kill_shell stops a running shell and says so for one that already ended', async () => {
    const kill = createKillShellTool(shells);
    const { id } = shells.start('sleep 30', dir);
    expect((await kill.call({ id }, ctx())).content).toBe(`Killed background shell ${id}.`);
    expect(shells.list()[0]?.status).toBe('killed');
    expect((await kill.call({ id }, ctx())).content).toBe(`Background shell ${id} had already ended (killed).`);
  });

  it('bash_output is read-only and concurrency safe; kill_shell is neither', () => {
    expect(createBashOutputTool(shells).effects?.({ id: 'a' })).toBe('none');
    expect(createBashOutputTool(shells).isConcurrencySafe?.({ id: 'a' })).toBe(true);
    expect(createKillShellTool(shells).effects?.({ id: 'a' })).toBe('world');
  });

  it('createBuiltinTools adds bash_output and kill_shell only when given shells', () => {
    expect(createBuiltinTools().map((t) => t.name)).not.toContain('bash_output');
    expect(createBuiltinTools({ shells }).map((t) => t.name).slice(-3)).toEqual(['bash', 'bash_output', 'kill_shell']);
  });
});
