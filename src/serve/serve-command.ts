import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSessionConfig } from '../session/session-config.js';
import { cairnHomeFrom } from '../util/cairn-home.js';
import { cairnPackageRoot } from '../util/package-root.js';
import { errorMessage } from '../util/error-message.js';
import { isLoopback } from './access-policy.js';
import { startServer, type CairnServer } from './server.js';
import { createSessionHub } from './session-hub.js';

export interface ServeOptions {
  port: number;
  host: string;
  open: boolean;
  token?: string;
}

export const SERVE_HELP = `Usage: cairn serve [--port 8765] [--host 127.0.0.1] [--token TOKEN] [--open]

Serves cairn in the browser: sessions grouped by workspace, the same engine and session files as
the terminal. Loopback only by default. Every request needs a token (one is generated and printed
in the address when --token is not given); off loopback bypassPermissions cannot be chosen from the page.
`;

export class ServeUsageError extends Error {
  override name = 'ServeUsageError';
}

export function parseServeArgs(args: readonly string[]): ServeOptions | 'help' {
  const out: ServeOptions = { port: 8765, host: '127.0.0.1', open: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined || v === '') throw new ServeUsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--help' || flag === '-h') return 'help';
    else if (flag === '--open') out.open = true;
    else if (flag === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ServeUsageError('--port: a number from 0 to 65535');
      out.port = port;
    } else if (flag === '--host') out.host = value();
    else if (flag === '--token') out.token = value();
    else throw new ServeUsageError(`unknown option ${arg}`);
  }
  return out;
}

/** Where the page's files are: components/web/static in the installed package. */
export function webRoot(): string {
  const root = cairnPackageRoot();
  if (!root) throw new Error('cannot find the web page files (components/web/static) beside cairn');
  return path.join(root, 'components', 'web', 'static');
}

/** `cairn serve`: runs until SIGINT/SIGTERM. Returns the exit code. */
export async function runServe(args: readonly string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  let opts: ServeOptions | 'help';
  try {
    opts = parseServeArgs(args);
  } catch (error) {
    io.stderr.write(`cairn serve: ${errorMessage(error)}\n${SERVE_HELP}`);
    return 2;
  }
  if (opts === 'help') {
    io.stdout.write(SERVE_HELP);
    return 0;
  }
  const loopback = isLoopback(opts.host);
  // A token on loopback too: any local process (another user, a sandboxed command whose proxy may
  // reach localhost) could otherwise drive the agent and answer its permission requests.
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const env = process.env;
  const cwd = process.cwd();
  let approvalTimeout: number;
  try {
    approvalTimeout = loadSessionConfig(cairnHomeFrom(env)).approvalTimeoutSeconds.web;
  } catch (error) {
    io.stderr.write(`cairn serve: ${errorMessage(error)}\n`);
    return 1;
  }
  const hub = createSessionHub({
    refuseBypass: !loopback,
    onProblem: (message) => io.stderr.write(`cairn serve: ${message}\n`),
    // The engine loads with the first session, so the page is served at once.
    // Each session its own copy of the environment: its folder's settings `env` is applied to that
    // copy and reaches only its own commands, hooks and servers, never process.env (every later session's).
    open: async (o) => (await import('../bootstrap.js')).createRuntime({ cwd: o.cwd, env: { ...env }, interactive: true, ...(o.resumeId ? { resumeId: o.resumeId } : {}) }),
    approvalTimeoutMs: approvalTimeout * 1000,
  });
  let server: CairnServer;
  try {
    server = await startServer({ hub, host: opts.host, port: opts.port, token, cairnHome: cairnHomeFrom(env), defaultCwd: cwd, staticRoot: webRoot(), version: packageVersion() });
  } catch (error) {
    io.stderr.write(`cairn serve: cannot listen on ${opts.host}:${opts.port}: ${errorMessage(error)}\n`);
    return 1;
  }
  io.stdout.write(`cairn serve: ${server.url}\n`);
  if (!loopback) io.stdout.write('cairn serve: listening beyond this machine; the address above carries the token every request needs\n');
  if (opts.open) openBrowser(server.url, io.stderr);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await server.close();
  return 0;
}

function packageVersion(): string {
  const root = cairnPackageRoot();
  if (!root) return 'unknown';
  return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
}

function openBrowser(url: string, stderr: NodeJS.WritableStream): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', (error) => stderr.write(`cairn serve: could not open a browser (${errorMessage(error)}); open ${url}\n`));
  child.unref();
}
