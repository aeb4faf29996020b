import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

// How a sandboxed command reaches cairn's proxy without any Unix socket made inside the sandbox.
// The sandbox has a network namespace of its own (loopback only). Before the command starts, a
// short Node program inside listens on the sandbox's 127.0.0.1:3128 and hands that listening socket
// to cairn over the IPC channel cairn gave it (fd 3, a socketpair made before bwrap started), then
// exits; the channel is closed and the command runs. cairn accepts the command's connections on that
// socket itself and serves them as its proxy. Nothing inside keeps a way to the host, so the
// seccomp filter that refuses Unix sockets (seccomp-filter.ts) covers every process in the sandbox:
// a bridge process that could make Unix sockets (socat, as before) could be driven by the command
// (ptrace, /proc/PID/mem) to reach a host socket for it.

/** The TCP port the bridge listens on, on the sandbox's own loopback. */
export const SANDBOX_PROXY_PORT = 3128;

/** The child's descriptor of the IPC channel: the first one after stdio. */
export const BRIDGE_CHILD_FD = 3;

const MESSAGE = 'cairn-network-bridge';

/** The program run inside (node -e): listen, send the listener, leave when cairn hangs up (or after 30 s). */
export const BRIDGE_SOURCE = [
  `const s = require('net').createServer();`,
  `s.on('error', (e) => { process.stderr.write('cairn sandbox: the network bridge could not listen: ' + e.message + '\\n'); process.exit(1); });`,
  `s.listen(${SANDBOX_PROXY_PORT}, '127.0.0.1', () => process.send('${MESSAGE}', s));`,
  `process.on('disconnect', () => process.exit(0));`,
  `setTimeout(() => process.exit(1), 30000);`,
].join(' ');

/** The proxy variables every common client reads, as NAME=value (no exceptions: NO_PROXY emptied). */
export function proxyVariables(proxy: string): string[] {
  return [...['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'].map((v) => `${v}=${proxy}`), 'NO_PROXY=', 'no_proxy='];
}

/**
 * The script bwrap runs (`bash -c SCRIPT cairn-sandbox COMMAND NODE SOURCE`): the bridge first, then
 * the channel closed and its variables gone, then the command with the proxy variables. The command
 * is an argument, never spliced into the script.
 */
export function bridgeScript(): string {
  const vars = proxyVariables(`http://127.0.0.1:${SANDBOX_PROXY_PORT}`).join(' ');
  return [
    `NODE_OPTIONS= "$2" -e "$3" </dev/null >/dev/null || echo 'cairn sandbox: the network bridge did not start; the network is unreachable for this command' >&2`,
    `exec ${BRIDGE_CHILD_FD}>&-`,
    'unset NODE_CHANNEL_FD NODE_CHANNEL_SERIALIZATION_MODE',
    `export ${vars}`,
    'exec bash -c "$1"',
  ].join('\n');
}

/**
 * Host side: takes the listener the bridge sends over `child`'s IPC channel and passes each
 * connection to `serve`; hangs up after the first message (anything else is ignored). Returns a
 * function closing the listener.
 */
export function adoptBridge(child: ChildProcess, serve: (socket: net.Socket) => void): () => void {
  let listener: net.Server | undefined;
  let closed = false;
  child.channel?.unref();
  child.once('message', (message: unknown, handle: unknown) => {
    if (message === MESSAGE && handle instanceof net.Server && !closed) {
      listener = handle;
      listener.on('connection', serve);
      listener.unref();
    } else if (handle instanceof net.Server) {
      handle.close();
    } else if (handle instanceof net.Socket) {
      handle.destroy();
    }
    if (child.connected) child.disconnect();
  });
  return () => {
    closed = true;
    listener?.close();
  };
}
