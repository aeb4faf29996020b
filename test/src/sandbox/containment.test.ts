import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/events.js';
import { query } from '../../../src/loop/query.js';
import { userText } from '../../../src/messages.js';
import type { AskPermission, PermissionChecker, PermissionRuleSet } from '../../../src/permissions/types.js';
import { buildPolicy } from '../../../src/sandbox/policy.js';
import { createSandbox, type CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/sandbox/sandbox-settings.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { collect, ofType } from '../../helpers/collect.js';
import { testChecker } from '../../helpers/permission-tools.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';

// Nothing runs unasked unless the operating system contains it: with no settings at all, every
// command the permission chain lets through without the user (read-only judgement, a rule, a mode)
// runs in bubblewrap, and one judged read-only where nothing can be written or reached. These run
// the real loop, the real checker, the real bash tool and real bubblewrap.

let root: string;
let ws: string;
let outside: string;
let home: string;
let server: Server;
let port: number;
const connections: string[] = [];

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-contain-')));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  home = path.join(root, 'home');
  for (const d of [ws, outside, home, path.join(home, '.ssh')]) await fs.mkdir(d, { recursive: true });
  await fs.writeFile(path.join(ws, 'notes.txt'), 'hello\n');
  await fs.writeFile(path.join(ws, '.env'), 'API_KEY=sk-live-secret\n');
  await fs.writeFile(path.join(home, '.ssh', 'id_test'), 'PRIVATE-KEY-MATERIAL\n');
  server = createServer((socket) => {
    connections.push('connected');
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.close();
  await fs.rm(root, { recursive: true, force: true });
});

function sandboxFor(settings: Partial<typeof DEFAULT_SANDBOX_SETTINGS> = {}): CommandSandbox {
  const s = { ...DEFAULT_SANDBOX_SETTINGS, ...settings };
  return createSandbox({ settings: s, policy: (tempDir) => buildPolicy({ workspace: ws, tempDir, home, filesystem: s.filesystem, network: s.network }) });
}

function checker(mode: PermissionMode, rules: Partial<PermissionRuleSet> = {}): PermissionChecker {
  return testChecker({ workspace: ws, home, cairnHome: path.join(root, 'cairn-home') }, mode, rules);
}

/** A checker that calls every command read-only: the analysis at its worst. */
function misjudging(): PermissionChecker {
  const real = checker('default');
  return { ...real, check: async () => ({ behavior: 'allow', reason: 'judged read-only (wrongly)', readOnly: true }) };
}

async function run(command: string, permissions: PermissionChecker, sandbox: CommandSandbox, opts: { ask?: AskPermission; disable?: boolean } = {}) {
  const provider = scriptedProvider([toolCall('t1', 'bash', { command, ...(opts.disable ? { dangerously_disable_sandbox: true } : {}) }), assistantText('done')]);
  const events = await collect(
    query({
      messages: [],
      prompt: userText('go'),
      tools: [createBashTool({ sandbox })],
      permissions,
      provider,
      system: () => 'system',
      cwd: ws,
      signal: new AbortController().signal,
      ...(opts.ask ? { ask: opts.ask } : {}),
    }),
  );
  return { events, result: ofType(events, 'tool_result')[0], asked: ofType(events, 'permission_request') };
}

const exists = (p: string): Promise<boolean> => fs.access(p).then(() => true, () => false);
const yes: AskPermission = async () => ({ behavior: 'allow' });

describe('containment of what runs unasked (real bubblewrap)', () => {
  it('stops a write and a connection by a command the analysis misjudged as read-only, with no settings', async () => {
    const sandbox = sandboxFor();
    const before = connections.length;
    const { result, asked } = await run(
      `touch PWNED-ws; touch ${outside}/PWNED-out; (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>&1; echo ran`,
      misjudging(),
      sandbox,
    );
    expect(asked).toHaveLength(0);
    expect(result?.content).toContain('ran');
    expect(result?.content).toMatch(/Read-only file system/);
    expect(await exists(path.join(ws, 'PWNED-ws'))).toBe(false);
    expect(await exists(path.join(outside, 'PWNED-out'))).toBe(false);
    expect(connections.length).toBe(before);
    expect(result?.content).toContain('the operating system refused');
    sandbox.close();
  });

  it('stops a misjudged command talking to a host service through a Unix socket it can see (a daemon socket in the workspace or home)', async () => {
    // Sockets outside /tmp and /run (a dev server's control socket in the project, Docker Desktop's
    // ~/.docker/desktop/docker.sock, a tmux -S socket) are reachable through a read-only mount: the
    // service on the other end acts outside the sandbox. No network namespace closes a Unix socket.
    const requests: string[] = [];
    const sock = path.join(ws, '.devserver.sock');
    const daemon = createServer((socket) => socket.on('data', (d) => requests.push(d.toString())));
    await new Promise<void>((resolve) => daemon.listen(sock, resolve));
    try {
      const connect = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('.devserver.sock'); s.sendall(b'run touch PWNED'); print('sent')" 2>&1; echo ran`;
      const readOnly = await run(connect, misjudging(), sandboxFor());
      expect(readOnly.asked).toHaveLength(0);
      expect(readOnly.result?.content).toContain('ran');
      expect(readOnly.result?.content).not.toContain('sent');
      // Unasked under bypassPermissions with the network open (no proxy bridge, which itself needs a Unix
      // socket): the workspace profile, which may write the workspace, reaches no host service either.
      const workspace = await run(connect, checker('bypassPermissions'), sandboxFor({ network: { ...DEFAULT_SANDBOX_SETTINGS.network, allowAll: true } }));
      expect(workspace.asked).toHaveLength(0);
      expect(workspace.result?.content).toContain('ran');
      expect(workspace.result?.content).not.toContain('sent');
      // The user's keyring outlives the sandbox too: add_key is refused (x86-64 numbering).
      if (process.arch === 'x64') {
        const key = await run(`python3 -c "import ctypes; l = ctypes.CDLL(None, use_errno=True); print('add_key', l.syscall(248, b'user', b'cairn-test', b'v', 1, ctypes.c_int(-4)), ctypes.get_errno())"`, misjudging(), sandboxFor());
        expect(key.result?.content).toContain('add_key -1 1');
      }
      // What still works there: a socket pair (no file on the other end), and what the command serves itself.
      const own = await run(`python3 -c "import socket; a, b = socket.socketpair(); a.sendall(b'pair-ok'); print(b.recv(7).decode())"`, checker('bypassPermissions'), sandboxFor());
      expect(own.result?.content).toContain('pair-ok');
      // Give a connection that got through the time to be read.
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(requests).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => daemon.close(() => resolve()));
    }
  });

  // cairn often runs as root (a container, a CI job, a VM). Root without capabilities still owns
  // /proc/sys: kernel.core_pattern set to '|/path/prog' runs prog as root, outside any sandbox, at the
  // next crash, and /proc/sysrq-trigger reboots the machine. The checks below change nothing: they ask
  // the kernel whether a write would be let through, and write back the value already there.
  it.skipIf(process.getuid?.() !== 0)('keeps the kernel\'s settings read-only for a command run as root, in both profiles', async () => {
    const probe = [
      'for f in /proc/sys/kernel/core_pattern /proc/sys/kernel/modprobe /proc/sysrq-trigger /proc/sys/vm/drop_caches; do [ -w "$f" ] && echo "writable $f"; done',
      'v=$(cat /proc/sys/kernel/core_pattern) && printf "%s\\n" "$v" > /proc/sys/kernel/core_pattern 2>/dev/null && echo "wrote core_pattern"',
      'echo probed',
    ].join('; ');
    for (const [profile, permissions] of [['read-only', misjudging()], ['workspace', checker('bypassPermissions')]] as const) {
      const { result } = await run(probe, permissions, sandboxFor());
      expect(result?.content, profile).toContain('probed');
      expect(result?.content, profile).not.toMatch(/writable|wrote/);
    }
  });

  it('runs a real read-only command unasked and it works: the workspace is readable, git status works', async () => {
    const sandbox = sandboxFor();
    execFileSync('git', ['init', '-q', ws]);
    const { result, asked } = await run('cat notes.txt && git status --short', checker('default'), sandbox);
    expect(asked).toHaveLength(0);
    expect(result?.content).toContain('hello');
    expect(result?.content).toContain('?? notes.txt');
    expect(result?.is_error).toBe(false);
    sandbox.close();
  });

  it('contains a command an allow rule lets through: writes in the workspace, not outside it', async () => {
    const sandbox = sandboxFor();
    const { result, asked } = await run(`touch made-by-rule && touch ${outside}/escaped`, checker('default', { allow: ['Bash(touch:*)'] }), sandbox, { ask: yes });
    // The outside path is named, so it is asked; the yes runs it in the sandbox (on by default), which
    // refuses the write and says so: leaving the sandbox is dangerously_disable_sandbox, asked on its own.
    expect(asked).toHaveLength(1);
    expect(await exists(path.join(outside, 'escaped'))).toBe(false);
    expect(result?.is_error).toBe(true);
    // (Here the outside folder is under the machine's /tmp, which the sandbox replaces with the session's own.)
    expect(result?.content).toContain(`${outside}/escaped`);
    // Under the rule alone (a path computed at run time), it runs unasked and the sandbox keeps it in.
    const again = await run(`d=${outside}; touch made-again; python3 -c "open('$d/escaped','w')" 2>&1 || true`, checker('bypassPermissions'), sandbox);
    expect(again.asked).toHaveLength(0);
    expect(await exists(path.join(ws, 'made-again'))).toBe(true);
    expect(await exists(path.join(outside, 'escaped'))).toBe(false);
    sandbox.close();
  });

  it('runs what the user approved in the sandbox; only an approved dangerously_disable_sandbox leaves it', async () => {
    const sandbox = sandboxFor();
    const inside = await run(`python3 -c "open('${outside}/approved','w')"`, checker('default'), sandbox, { ask: yes });
    expect(inside.asked).toHaveLength(1);
    expect(await exists(path.join(outside, 'approved'))).toBe(false);
    expect(inside.result?.is_error).toBe(true);
    const out = await run(`python3 -c "open('${outside}/approved','w')"`, checker('default'), sandbox, { ask: yes, disable: true });
    expect(out.asked).toHaveLength(1);
    expect(out.asked[0]?.reason).toContain('outside the sandbox');
    expect(await exists(path.join(outside, 'approved'))).toBe(true);
    sandbox.close();
  });

  it('with the sandbox off but containment on (the state before the default), a yes runs outside it', async () => {
    const sandbox = sandboxFor({ enabled: false });
    const { asked } = await run(`python3 -c "open('${outside}/approved-off','w')"`, checker('default'), sandbox, { ask: yes });
    expect(asked).toHaveLength(1);
    expect(await exists(path.join(outside, 'approved-off'))).toBe(true);
    sandbox.close();
  });

  it('with sandbox.enabled false in the user settings, nothing is contained (the analysis alone)', async () => {
    const sandbox = sandboxFor({ enabled: false, containUnasked: false });
    const { result } = await run(`touch ${outside}/uncontained`, misjudging(), sandbox);
    expect(result?.is_error).toBe(false);
    expect(await exists(path.join(outside, 'uncontained'))).toBe(true);
    sandbox.close();
  });

  it('hides what Read deny rules cover from every sandboxed program, not only the ones cairn knows', async () => {
    const sandbox = sandboxFor();
    const permissions = checker('bypassPermissions', { deny: ['Read(./.env)', 'Read(~/.ssh/**)'] });
    sandbox.hideReadDenied(async () => (await permissions.readDeniedPlaces?.()) ?? []);
    const { result } = await run(`python3 -c "print(open('.env').read()); print(open('${home}/.ssh/id_test').read())" 2>&1; ln -s .env alias; base64 alias; cat ${home}/.ssh/id_test`, permissions, sandbox);
    expect(result?.content).not.toContain('sk-live-secret');
    expect(result?.content).not.toContain(Buffer.from('API_KEY=sk-live-secret\n').toString('base64').slice(0, 12));
    expect(result?.content).not.toContain('PRIVATE-KEY-MATERIAL');
    await fs.rm(path.join(ws, 'alias'), { force: true });
    sandbox.close();
  });
});

describe('dangerously_disable_sandbox is always the user\'s call', () => {
  it.each<[PermissionMode, Partial<PermissionRuleSet>]>([
    ['default', {}],
    ['default', { allow: ['Bash(sort:*)'] }],
    ['acceptEdits', { allow: ['Bash'] }],
    ['bypassPermissions', {}],
  ])('asks in %s with rules %j', async (mode, rules) => {
    const sandbox = sandboxFor();
    const target = path.join(outside, `sorted-${mode}-${Object.keys(rules).length}`);
    const { asked } = await run(`sort --output=${target} notes.txt`, checker(mode, rules), sandbox, { disable: true, ask: async () => ({ behavior: 'deny' }) });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.reason).toContain('outside the sandbox');
    expect(await exists(target)).toBe(false);
    sandbox.close();
  });

  it('is denied in plan mode and where nobody can be asked', async () => {
    const sandbox = sandboxFor();
    const plan = await run('ls', checker('plan'), sandbox, { disable: true, ask: yes });
    expect(plan.result?.content).toMatch(/Permission denied: plan mode/);
    const headless = await run('ls', checker('bypassPermissions'), sandbox, { disable: true });
    expect(headless.result?.content).toMatch(/Permission denied: .*outside the sandbox/);
    sandbox.close();
  });

  it('the sandbox itself refuses to leave for a call nobody approved', async () => {
    const sandbox = sandboxFor();
    expect(await sandbox.prepare('true', { disable: true, approval: { byUser: false, readOnly: true } })).toEqual({ refuse: expect.stringContaining('outside the sandbox only when the user') });
    sandbox.close();
  });
});
