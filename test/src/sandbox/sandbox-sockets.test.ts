import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { createBashTool } from '../../../src/tools/bash.js';
import type { ToolResult } from '../../../src/tools/tool.js';
import { testSandbox, type TestSandboxOptions } from '../../helpers/sandbox.js';
import { waitFor } from '../../helpers/wait-for.js';

// Host services listening on a Unix socket act outside the sandbox for whoever connects: a tmux
// server runs any command in the user's terminal (new-window, run-shell), ssh-agent signs with the
// user's keys, the D-Bus session bus starts units (systemd-run --user), docker.sock is root. Each
// test starts the real service where the sandbox could see its socket (the machine's /tmp, a
// read-only place like /var/tmp or home, the workspace, the abstract namespace), proves the rig
// works from outside, and then asks it from inside the sandbox to touch a file: nothing appears.

for (const tool of ['tmux', 'ssh-agent', 'ssh-add', 'dbus-daemon', 'dbus-send', 'socat']) execFileSync('which', [tool]);

let ws: string;
let outside: string;
let visible: string;
const cleanups: (() => void | Promise<void>)[] = [];

beforeEach(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-sandbox-sock-')));
  // Where the escapes would write: outside every writable place of the sandbox.
  outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-sandbox-outside-')));
  // A place the sandbox sees read-only (as it sees home): /var/tmp is not covered by the private /tmp.
  visible = await fs.mkdtemp(path.join('/var/tmp', 'cairn-sandbox-visible-'));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of [ws, outside, visible]) await fs.rm(d, { recursive: true, force: true });
});

async function sandboxFor(options: TestSandboxOptions = {}): Promise<CommandSandbox> {
  const sandbox = await testSandbox(ws, options);
  cleanups.push(() => sandbox.close());
  return sandbox;
}

async function runIn(command: string, options: TestSandboxOptions & { env?: NodeJS.ProcessEnv } = {}): Promise<ToolResult> {
  const sandbox = await sandboxFor(options);
  return createBashTool({ sandbox, ...(options.env ? { env: options.env } : {}) }).call({ command, timeout: 30_000 }, { cwd: ws, signal: new AbortController().signal });
}

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A real tmux server on `socket`, killed after the test. */
function startTmux(socket: string): void {
  execFileSync('tmux', ['-S', socket, 'new-session', '-d', '-s', `containment-${process.pid}`, '-x', '80', '-y', '20']);
  cleanups.push(() => {
    try {
      execFileSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
  });
}

/** What an escape through a tmux server looks like: a window and a run-shell, each touching a file outside. */
const tmuxEscape = (socket: string, name: string): string =>
  `tmux -S ${q(socket)} new-window ${q(`touch ${outside}/${name}-window`)}; tmux -S ${q(socket)} run-shell ${q(`touch ${outside}/${name}-run`)}; echo done`;

/** Checks that the server did not run what the sandboxed command asked: a later command from outside runs (in order), the escape's did not. */
async function expectTmuxUntouched(socket: string, name: string): Promise<void> {
  execFileSync('tmux', ['-S', socket, 'new-window', `touch ${outside}/control`]);
  await waitFor(() => existsSync(path.join(outside, 'control')), { message: 'the control window never ran', timeout: 20_000 });
  expect(existsSync(path.join(outside, `${name}-window`))).toBe(false);
  expect(existsSync(path.join(outside, `${name}-run`))).toBe(false);
}

describe('Unix sockets of host services are out of reach from the sandbox', () => {
  it('a tmux server in the machine\'s /tmp (tmux\'s default place) runs nothing for a sandboxed command', async () => {
    const socket = path.join(outside, 'tmux-default');
    startTmux(socket);
    execFileSync('bash', ['-c', tmuxEscape(socket, 'rig')]);
    await waitFor(() => existsSync(path.join(outside, 'rig-window')), { message: 'the rig does not work from outside', timeout: 20_000 });
    expect(existsSync(path.join(outside, 'rig-run'))).toBe(true);

    const r = await runIn(tmuxEscape(socket, 'escape'));
    expect(r.content).toContain('done');
    await expectTmuxUntouched(socket, 'escape');
  });

  it('a tmux server whose socket the sandbox can see (read-only, as in home) runs nothing for a sandboxed command', async () => {
    const socket = path.join(visible, 'tmux');
    startTmux(socket);
    const r = await runIn(`test -S ${q(socket)} && echo visible; ${tmuxEscape(socket, 'escape')}`);
    expect(r.content).toContain('visible'); // the socket file is there to see: what stops it is that no Unix socket can be made
    await expectTmuxUntouched(socket, 'escape');
  });

  it('a tmux server with its socket in the workspace runs nothing for a sandboxed command, with the network open too (allowAll)', async () => {
    const socket = path.join(ws, '.tmux-sock');
    startTmux(socket);
    for (const network of [{ allowedDomains: [], allowAll: false }, { allowedDomains: [], allowAll: true }]) {
      const r = await runIn(tmuxEscape(socket, `escape-${network.allowAll}`), { settings: { network } });
      expect(r.content).toContain('done');
      await expectTmuxUntouched(socket, `escape-${network.allowAll}`);
    }
  });

  it('ssh-agent: the sandbox gets no SSH_AUTH_SOCK, and the agent\'s socket cannot be reached by its path', async () => {
    const socket = path.join(visible, 'agent.sock');
    const out = execFileSync('ssh-agent', ['-a', socket, '-s'], { encoding: 'utf8' });
    const pid = Number(/SSH_AGENT_PID=(\d+)/.exec(out)?.[1]);
    cleanups.push(() => void process.kill(pid));
    // The rig: from outside, the agent answers (with no keys).
    expect(spawnSync('ssh-add', ['-l'], { env: { ...process.env, SSH_AUTH_SOCK: socket }, encoding: 'utf8' }).stdout).toContain('no identities');

    const env = { ...process.env, SSH_AUTH_SOCK: socket };
    const r = await runIn(`echo "sock=\${SSH_AUTH_SOCK-unset}"; SSH_AUTH_SOCK=${q(socket)} ssh-add -l; echo rc=$?`, { env });
    expect(r.content).toContain('sock=unset');
    expect(r.content).not.toContain('no identities');
    expect(r.content).toMatch(/rc=2/); // ssh-add: could not contact the agent
  });

  it('a D-Bus bus (path or abstract address) cannot be reached, and DBUS_SESSION_BUS_ADDRESS is not passed in', async () => {
    const config = path.join(outside, 'bus.conf');
    await fs.writeFile(
      config,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${visible}/bus</listen><listen>unix:abstract=cairn-containment-${process.pid}</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
    );
    const out = execFileSync('dbus-daemon', [`--config-file=${config}`, '--fork', '--print-pid'], { encoding: 'utf8' });
    const pid = Number(out.trim().split('\n')[0]);
    cleanups.push(() => void process.kill(pid));
    const ask = (address: string): string =>
      `dbus-send --bus=${q(address)} --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.ListNames >/dev/null 2>&1 && echo reached || echo refused`;
    const addresses = [`unix:path=${visible}/bus`, `unix:abstract=cairn-containment-${process.pid}`];
    for (const a of addresses) expect(execFileSync('bash', ['-c', ask(a)], { encoding: 'utf8' }).trim()).toBe('reached');

    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: addresses[0] };
    for (const network of [{ allowedDomains: [], allowAll: false }, { allowedDomains: [], allowAll: true }]) {
      const r = await runIn(`echo "bus=\${DBUS_SESSION_BUS_ADDRESS-unset}"; ${addresses.map(ask).join('; ')}`, { env, settings: { network } });
      expect(r.content).toBe('bus=unset\nrefused\nrefused');
    }
  });

  it('a service on a socket in the workspace (a docker.sock, a dev server\'s control socket) sees no connection', async () => {
    const socket = path.join(ws, 'docker.sock');
    let connections = 0;
    const server = net.createServer((c) => {
      connections += 1;
      c.end('HTTP/1.0 200 OK\r\n\r\nroot on the host\n');
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    cleanups.push(() => {
      server.close();
      server.unref();
    });
    const r = await runIn(`curl -sS --max-time 5 --unix-socket ${q(socket)} http://localhost/containers/json; socat -T2 - UNIX-CONNECT:${q(socket)} </dev/null; echo end`);
    expect(r.content).not.toContain('root on the host');
    expect(connections).toBe(0);
  });

  it('an abstract-namespace socket on the host is out of reach: cut by the network namespace, and by the filter with the host network (allowAll)', async () => {
    const name = `cairn-containment-abstract-${process.pid}`;
    const log = path.join(outside, 'connections');
    // socat on the host, in the abstract namespace, noting each connection in a file.
    const server = spawn('socat', [`ABSTRACT-LISTEN:${name},fork`, `SYSTEM:echo reached; echo x >> ${log}`], { stdio: 'ignore' });
    cleanups.push(() => {
      server.kill();
    });
    await waitFor(() => execFileSync('socat', ['-T2', '-', `ABSTRACT-CONNECT:${name}`], { encoding: 'utf8', input: '' }) === 'reached\n', { message: 'the abstract rig does not answer' });
    await fs.rm(log, { force: true });
    for (const network of [{ allowedDomains: [], allowAll: false }, { allowedDomains: [], allowAll: true }]) {
      const r = await runIn(`socat -T2 - ABSTRACT-CONNECT:${name} </dev/null; echo end`, { settings: { network } });
      expect(r.content).not.toContain('reached');
    }
    expect(existsSync(log)).toBe(false);
  });

  it('passes in no variable that names a host socket or a terminal to drive', async () => {
    const env = {
      ...process.env,
      SSH_AUTH_SOCK: '/x/agent',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x/bus',
      TMUX: '/tmp/tmux-0/default,1,0',
      TMUX_PANE: '%1',
      DISPLAY: ':0',
      WAYLAND_DISPLAY: 'wayland-0',
      XDG_RUNTIME_DIR: '/run/user/0',
      GPG_AGENT_INFO: '/x/S.gpg-agent:0:1',
      KITTY_LISTEN_ON: 'unix:/x/kitty',
      NVIM: '/x/nvim.sock',
      KEEP_ME: 'kept',
    };
    const r = await runIn('env | cut -d= -f1 | sort', { env });
    const names = r.content.split('\n');
    expect(names).toContain('KEEP_ME');
    for (const gone of ['SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS', 'TMUX', 'TMUX_PANE', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR', 'GPG_AGENT_INFO', 'KITTY_LISTEN_ON', 'NVIM']) {
      expect(names, gone).not.toContain(gone);
    }
  });

  it('with sandbox.network.allowAllUnixSockets (user settings) the workspace profile may make Unix sockets; what runs read-only still may not', async () => {
    const socket = path.join(ws, 'dev.sock');
    let connections = 0;
    const server = net.createServer((c) => {
      connections += 1;
      c.end('answered\n');
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    cleanups.push(() => {
      server.close();
      server.unref();
    });
    const sandbox = await sandboxFor({ settings: { network: { allowedDomains: [], allowAll: false, allowAllUnixSockets: true } } });
    const bash = createBashTool({ sandbox });
    const ctx = { cwd: ws, signal: new AbortController().signal };
    const command = `socat -T2 - UNIX-CONNECT:${q(socket)} </dev/null; echo end`;
    expect((await bash.call({ command }, ctx)).content).toBe('answered\nend');
    const readOnly = await bash.call({ command }, { ...ctx, approval: { byUser: false, readOnly: true } });
    expect(readOnly.content).not.toContain('answered');
    expect(connections).toBe(1);
  });

  it('leaves the command no way to the host: the bridge\'s channel is closed and its variables gone before the command starts', async () => {
    // (Its stdout and stderr are cairn's output pipes, which Node makes as socket pairs: fds 1 and 2.)
    const r = await runIn('for f in /proc/$$/fd/*; do echo "${f##*/} $(readlink "$f")"; done; echo "channel=${NODE_CHANNEL_FD-unset}"');
    const lines = r.content.split('\n');
    expect(lines).toContain('channel=unset');
    expect(lines.filter((l) => / socket:/.test(l) && !/^[12] /.test(l))).toEqual([]);
  });
});
