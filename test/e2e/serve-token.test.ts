import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { waitFor } from '../helpers/wait-for.js';

// On loopback too, a token: any local process (another user on the machine, a command in cairn's own
// sandbox whose proxy reaches localhost) could otherwise drive the agent, approve its own requests
// and choose bypassPermissions from the API.
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

async function serve(args: string[]): Promise<string | false> {
  const { dir, home } = await tempWorkspace();
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '', HOME: home, CAIRN_HOME: home };
  const started = spawn(process.execPath, [cairnBin, 'serve', '--port', '0', ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  let out = '';
  started.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  started.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return waitFor((): string | false => /cairn serve: (http:\/\/\S+)/.exec(out)?.[1] ?? false, { timeout: 15_000, message: `the address (output so far: ${out})` });
}

describe('cairn serve on loopback', () => {
  it('prints an address with a token, and refuses the API without it', async () => {
    const url = new URL(String(await serve([])));
    const token = url.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(32);
    const api = `${url.origin}/api/sessions`;
    expect((await fetch(api)).status).toBe(401);
    expect((await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await fetch(`${api}?token=wrong${token.slice(5)}`)).status).toBe(401);
    expect((await fetch(api, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('uses the token given with --token', async () => {
    const url = new URL(String(await serve(['--token', 'a-token-the-user-chose'])));
    expect(url.searchParams.get('token')).toBe('a-token-the-user-chose');
    expect((await fetch(`${url.origin}/api/info`)).status).toBe(401);
    expect((await fetch(`${url.origin}/api/info?token=a-token-the-user-chose`)).status).toBe(200);
  });
});
