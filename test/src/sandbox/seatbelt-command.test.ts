import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/sandbox/availability.js';
import { buildPolicy } from '../../../src/sandbox/policy.js';
import { SANDBOX_EXEC, seatbeltCommand } from '../../../src/sandbox/seatbelt-command.js';
import { prepareSandboxed } from '../../../src/sandbox/sandboxed-spawn.js';

// macOS cannot be run here (Linux): the command line cairn would hand sandbox-exec is checked as data,
// and the wiring (proxy on a loopback port, the profile naming that port, git's configured places)
// with a real proxy and real git. Whether macOS enforces the profile is not tested anywhere.

const policy = buildPolicy({
  workspace: '/Users/me/project',
  tempDir: '/private/var/folders/xy/T/cairn-sandbox-1/tmp',
  home: '/Users/me',
  network: { allowedDomains: ['registry.npmjs.org'] },
});

const profileOf = (args: string[]): string => args[1] ?? '';
const envOf = (args: string[]): string[] => args.slice(args.indexOf('/usr/bin/env') + 1, args.indexOf('bash'));

describe('the sandbox-exec command line', () => {
  it('runs bash -c with the command verbatim under the generated profile, pointed at the proxy', () => {
    const command = `echo "a  b" && printf '%s' $HOME`;
    const { file, args } = seatbeltCommand(policy, command, { proxyPort: 51234 });
    expect(file).toBe(SANDBOX_EXEC);
    expect(args[0]).toBe('-p');
    expect(args.slice(-3)).toEqual(['bash', '-c', command]);
    const profile = profileOf(args);
    expect(profile).toMatch(/^\(version 1\)\n\(deny default\)/);
    expect(profile).toContain('(allow file-write* (subpath "/Users/me/project") (subpath "/private/var/folders/xy/T/cairn-sandbox-1/tmp"))');
    expect(profile).toContain('(subpath "/Users/me/project/.git/hooks")');
    expect(profile).toContain('(allow network-outbound (remote tcp "localhost:51234"))');
    expect(envOf(args)).toEqual([
      'TMPDIR=/private/var/folders/xy/T/cairn-sandbox-1/tmp',
      ...['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'].map((v) => `${v}=http://127.0.0.1:51234`),
      'NO_PROXY=',
      'no_proxy=',
    ]);
  });

  it('the read-only profile writes only the temp folder and reaches no network, not even the proxy', () => {
    const { args } = seatbeltCommand(policy, 'git status', { readOnly: true, proxyPort: 51234 });
    const profile = profileOf(args);
    expect(profile).toContain('(allow file-write* (subpath "/private/var/folders/xy/T/cairn-sandbox-1/tmp"))');
    expect(profile).not.toContain('/Users/me/project"))');
    expect(profile).not.toContain('network');
    expect(envOf(args)).toEqual(['TMPDIR=/private/var/folders/xy/T/cairn-sandbox-1/tmp', 'GIT_OPTIONAL_LOCKS=0']);
  });

  it('with network.allowAll the host network as is, and no proxy variables', () => {
    const { args } = seatbeltCommand({ ...policy, network: { restricted: false, allowedDomains: [] } }, 'curl x', { proxyPort: 51234 });
    expect(profileOf(args)).toContain('(allow network*)');
    expect(envOf(args).some((v) => v.startsWith('HTTP_PROXY'))).toBe(false);
  });
});

describe('the macOS wiring, run on Linux', () => {
  let root: string;
  let ws: string;
  beforeEach(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-seatbelt-')));
    ws = path.join(root, 'ws');
    await fs.mkdir(ws);
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('starts the proxy on the loopback port the profile names, refuses a domain off the list there, and reports it', async () => {
    execFileSync('git', ['init', '-q'], { cwd: ws });
    execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { cwd: ws });
    const asked: string[] = [];
    const prepared = await prepareSandboxed({
      policy: buildPolicy({ workspace: ws, tempDir: path.join(root, 'tmp'), home: root, network: { allowedDomains: [] } }),
      command: 'curl https://blocked.example/',
      emptyFile: path.join(root, 'empty-file'),
      emptyDir: path.join(root, 'empty-dir'),
      socketDir: root,
      decide: async (host) => {
        asked.push(host);
        return false;
      },
      placeholders: new Map(),
      retryHint: true,
      platform: 'darwin',
    });
    expect(prepared.file).toBe(SANDBOX_EXEC);
    const profile = profileOf(prepared.args);
    const port = Number(/remote tcp "localhost:(\d+)"/.exec(profile)?.[1]);
    expect(envOf(prepared.args)).toContain(`HTTPS_PROXY=http://127.0.0.1:${port}`);
    // The repository's configured hooks folder and the absent protected names are denied by the profile; nothing is put on disk for them.
    expect(profile).toContain(`(subpath "${ws}/.githooks")`);
    expect(profile).toContain(`(literal "${ws}/.mcp.json")`);
    expect(existsSync(path.join(ws, '.mcp.json'))).toBe(false);
    // What curl would send through HTTPS_PROXY.
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('CONNECT blocked.example:443 HTTP/1.1\r\nHost: blocked.example:443\r\n\r\n'));
      let got = '';
      socket.on('data', (d: Buffer) => (got += d.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 403/);
    expect(asked).toEqual(['blocked.example']);
    const note = await prepared.finish('');
    expect(note).toContain('The sandbox refused network access to blocked.example');
    // Closed with the command.
    await expect(new Promise((resolve, reject) => net.connect(port, '127.0.0.1', () => resolve('open')).on('error', reject))).rejects.toThrow(/ECONNREFUSED/);
  });

  it('probes sandbox-exec on macOS and says why when it is missing or refuses', async () => {
    expect(await probeSandbox({ platform: 'darwin', sandboxExec: '/usr/bin/true' })).toEqual({ available: true });
    expect(await probeSandbox({ platform: 'darwin', sandboxExec: path.join(root, 'no-such-sandbox-exec') })).toEqual({
      available: false,
      reason: expect.stringContaining('sandbox-exec is not on this Mac'),
    });
    expect(await probeSandbox({ platform: 'darwin', sandboxExec: '/usr/bin/false' })).toMatchObject({ available: false, reason: expect.stringContaining('cannot apply a profile') });
  });
});
