import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import type { PreparedCommand } from '../../../src/sandbox/sandboxed-spawn.js';
import { createShellManager } from '../../../src/shells/shell-manager.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { pidsWith, testSandbox } from '../../helpers/sandbox.js';
import { waitFor } from '../../helpers/wait-for.js';

// Processes a sandboxed command starts live in its own PID namespace: whatever it forks ends with
// it, with a timeout, with an interrupt, and with cairn itself.

let ws: string;
let sandbox: CommandSandbox;
let seq = 0;
/** A sleep whose command line is unique to this test, so its host processes can be found. */
const marker = (): string => `${100000 + (process.pid % 1000)}.${Date.now() % 100000}${++seq}`;
const ctx = () => ({ cwd: ws, signal: new AbortController().signal });

beforeEach(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-sandbox-proc-')));
  sandbox = await testSandbox(ws);
});
afterEach(async () => {
  sandbox.close();
  await fs.rm(ws, { recursive: true, force: true });
});

describe('processes in the sandbox', () => {
  it('ends a fork bomb with the command (timeout kills the whole namespace)', async () => {
    const m = marker();
    // Bounded at 2^8 sleepers so a shared test machine survives it; each level forks two copies of itself.
    const bomb = `b(){ [ "$1" -gt 0 ] && { b $(($1-1)) & b $(($1-1)) & }; sleep ${m}; }; b 7`;
    const bash = createBashTool({ sandbox });
    const result = bash.call({ command: bomb, timeout: 3000 }, ctx());
    await waitFor(() => pidsWith(`sleep ${m}`).length > 100, { message: 'the bomb did not spread' });
    const r = await result;
    expect(r.content).toContain('timed out');
    await waitFor(() => pidsWith(`sleep ${m}`).length === 0, { message: 'processes of the bomb outlived the command' });
  });

  it('ends background processes of a command when the command ends', async () => {
    const m = marker();
    const bash = createBashTool({ sandbox });
    const r = await bash.call({ command: `sleep ${m} & echo started` }, ctx());
    expect(r.content).toBe('started');
    await waitFor(() => pidsWith(`sleep ${m}`).length === 0, { message: 'a background process outlived its command' });
  });

  it('ends a background shell and everything it started when the session ends (killAll)', async () => {
    const m = marker();
    const shells = createShellManager({ onEvent: () => {} });
    const bash = createBashTool({ sandbox, shells });
    const r = await bash.call({ command: `sleep ${m} & sleep ${m} & wait`, run_in_background: true }, ctx());
    expect(r.content).toContain('Started background shell');
    await waitFor(() => pidsWith(`sleep ${m}`).length === 2);
    shells.killAll();
    await waitFor(() => pidsWith(`sleep ${m}`).length === 0, { message: 'background processes outlived the session' });
  });

  it('ends everything when cairn itself is killed (SIGKILL, no clean-up code runs)', async () => {
    const m = marker();
    const prepared = (await sandbox.prepare(`sleep ${m} & sleep ${m} & wait`)) as PreparedCommand;
    expect(prepared.sandboxed).toBe(true);
    // A stand-in for cairn: a Node process that starts the sandboxed command as cairn does (the network
    // bridge's channel as fd 3, hung up once it has spoken; the seccomp program as fd 4) and then dies hard.
    const script = [
      `const c = require('child_process').spawn(${JSON.stringify(prepared.file)}, JSON.parse(process.argv[1]), { cwd: ${JSON.stringify(ws)}, detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc', 4] });`,
      `c.on('message', () => c.disconnect()); setInterval(() => {}, 1000);`,
    ].join(' ');
    const fakeCairn = spawn(process.execPath, ['-e', script, JSON.stringify(prepared.args)], { stdio: ['ignore', 'ignore', 'ignore', 'ignore', ...(prepared.passFds ?? [])] });
    await waitFor(() => pidsWith(`sleep ${m}`).length === 2, { message: 'the sandboxed command did not start' });
    fakeCairn.kill('SIGKILL');
    await waitFor(() => pidsWith(`sleep ${m}`).length === 0, { message: 'sandboxed processes outlived cairn' });
    await prepared.finish('');
  });
});
