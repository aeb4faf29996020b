import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionAsk } from '../../../src/permissions/types.js';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { createShellManager } from '../../../src/shells/shell-manager.js';
import { createBashTool } from '../../../src/tools/bash.js';
import type { ToolResult } from '../../../src/tools/tool.js';
import { testSandbox, type TestSandboxOptions } from '../../helpers/sandbox.js';
import { waitFor } from '../../helpers/wait-for.js';

// The sandbox has no network of its own: only the host proxy, which lets through the allowed
// domains and asks for others. A real loopback server on the host stands in for the internet.

execFileSync('curl', ['--version']); // the tests drive real curl inside the sandbox

let server: http.Server;
let port: number;
const hits: string[] = [];
let ws: string;
const open: CommandSandbox[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
    res.end('hello from the host\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  hits.length = 0;
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-sandbox-net-')));
});
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  await fs.rm(ws, { recursive: true, force: true });
});

async function run(command: string, options: TestSandboxOptions): Promise<ToolResult> {
  const sandbox = await testSandbox(ws, options);
  open.push(sandbox);
  return createBashTool({ sandbox }).call({ command, timeout: 20_000 }, { cwd: ws, signal: new AbortController().signal });
}

const allowLocalhost: TestSandboxOptions = { settings: { network: { allowedDomains: ['localhost'], allowAll: false } } };

describe('the sandbox network', () => {
  it('reaches a domain on the allow list through the proxy (plain HTTP and CONNECT)', async () => {
    const r = await run(`curl -sS http://localhost:${port}/plain && curl -sS --proxytunnel http://localhost:${port}/tunnel`, allowLocalhost);
    expect(r.content).toBe('hello from the host\nhello from the host');
    expect(hits).toEqual([`localhost:${port}/plain`, `localhost:${port}/tunnel`]);
  });

  it('refuses a domain not on the list and names it', async () => {
    const r = await run(`curl -sS --fail http://127.0.0.1:${port}/secret`, allowLocalhost);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('The sandbox refused network access to 127.0.0.1');
    expect(hits).toEqual([]);
  });

  it('says what it refused in the card\'s display even when the command exits 0 (curl without --fail on the proxy\'s 403)', async () => {
    const r = await run(`curl -sS http://127.0.0.1:${port}/quiet; echo exit=$?`, allowLocalhost);
    expect(r.content).toContain('exit=0');
    expect(r.isError).toBeFalsy();
    expect(r.display).toMatchObject({ kind: 'bash', exitCode: 0, sandboxRefused: { domains: ['127.0.0.1'], paths: [] } });
    const allowed = await run(`curl -sS http://localhost:${port}/fine`, allowLocalhost);
    expect(allowed.display).not.toHaveProperty('sandboxRefused');
  });

  it('has no way around the proxy: a direct connection finds nothing', async () => {
    const r = await run(`curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${port}/direct; bash -c 'echo x > /dev/tcp/127.0.0.1/${port}'`, allowLocalhost);
    expect(r.isError).toBe(true);
    expect(hits).toEqual([]);
  });

  it('asks for a new domain once, and lets it through when approved', async () => {
    const asked: PermissionAsk[] = [];
    const r = await run(`curl -sS http://127.0.0.1:${port}/a && curl -sS http://127.0.0.1:${port}/b`, {
      ask: async (request) => {
        asked.push(request);
        return { behavior: 'allow' };
      },
    });
    expect(r.content).toBe('hello from the host\nhello from the host');
    expect(asked.map((a) => a.input)).toEqual([{ domain: '127.0.0.1' }]);
    expect(asked[0]?.reason).toContain('127.0.0.1');
  });

  it('refuses a new domain the user declines, and every new domain when nobody can be asked', async () => {
    const declined = await run(`curl -sS --fail http://127.0.0.1:${port}/x`, { ask: async () => ({ behavior: 'deny' }) });
    expect(declined.content).toContain('refused network access to 127.0.0.1');
    const headless = await run(`curl -sS --fail http://localhost:${port}/y`, {});
    expect(headless.content).toContain('refused network access to localhost');
    expect(hits).toEqual([]);
  });

  it('reaches an allowed domain from a background shell too (its own bridge), and says what was refused there', async () => {
    const sandbox = await testSandbox(ws, allowLocalhost);
    open.push(sandbox);
    const shells = createShellManager({ onEvent: () => {} });
    const bash = createBashTool({ sandbox, shells });
    const r = await bash.call(
      { command: `curl -sS http://localhost:${port}/bg; curl -sS --fail http://127.0.0.1:${port}/no`, run_in_background: true },
      { cwd: ws, signal: new AbortController().signal },
    );
    const id = /background shell (\S+)\./.exec(r.content)?.[1] ?? '';
    await waitFor(() => shells.output(id)?.info.status !== 'running' && /refused network access/.test(shells.output(id)?.text ?? ''), { timeout: 30_000 });
    expect(shells.output(id)?.text).toContain('hello from the host');
    expect(shells.output(id)?.text).toContain('The sandbox refused network access to 127.0.0.1');
    expect(hits).toEqual([`localhost:${port}/bg`]);
  });
});
