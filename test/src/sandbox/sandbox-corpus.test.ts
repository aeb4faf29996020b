import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { testSandbox } from '../../helpers/sandbox.js';

// The security issue's bypass corpora, and our own escapes, with the sandbox on in auto-allow
// mode: whatever the permission chain lets run (or would ask the user about) runs for real in the
// sandbox, and afterwards nothing outside the workspace has changed and no request reached a host
// server that is not on the allow list.

/** Every `command: '...'` string literal of a corpus file. */
function corpusCommands(file: string): string[] {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const literal = /command: ('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/g;
  return [...text.matchAll(literal)].map((m) => unquote(m[1] ?? "''"));
}

/** A JavaScript string literal's value (the escapes the corpora use). */
function unquote(lit: string): string {
  const named: Record<string, string> = { n: '\n', r: '\r', t: '\t', '0': '\0', b: '\b', f: '\f', v: '\v' };
  return lit.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_all, e: string) =>
    e.length > 1 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (named[e] ?? e),
  );
}

const corpora = ['../permissions/bash-attacks.test.ts', '../permissions/bash-corpus.test.ts', '../permissions/bash-deny-modes.test.ts'];

let root: string;
let ws: string;
let outside: string;
let home: string;
let server: http.Server;
let port: number;
const hits: string[] = [];
let sandbox: CommandSandbox;
const realHome = process.env['HOME'];

/** Our own: ways out, written against {OUT} (a folder outside), {PORT} (a host server not on the list). */
const ownCorpus = [
  'echo pwned > {OUT}/a',
  'cd .. && touch outside/b',
  'ln -s {OUT} l && echo x > l/c',
  'python3 -c "open(\'{OUT}/d\', \'w\').write(\'x\')"',
  'node -e "require(\'fs\').writeFileSync(\'{OUT}/e\', \'x\')"',
  'perl -e \'open(F, ">{OUT}/f"); print F "x"\'',
  'eval "$(echo ZWNobyB4ID4ge09VVH0vZw== | base64 -d | sed s#{OUT}#{OUT}#)"',
  'cp /etc/hostname {OUT}/h; mv X {OUT}/i; tee {OUT}/j </dev/null; dd if=/dev/zero of={OUT}/k count=1',
  'find . -maxdepth 0 -exec touch {OUT}/m \\;',
  'echo {OUT}/n | xargs touch',
  'tar -cf {OUT}/o.tar .',
  'git -C {OUT} init',
  'BASH_ENV=<(echo "touch {OUT}/p") bash -c true',
  'echo x > ~/.bashrc-cairn; mkdir -p ~/.ssh && echo key >> ~/.ssh/authorized_keys',
  'touch /proc/self/root{OUT}/q; touch /proc/1/root{OUT}/r',
  'mount --bind {OUT} mnt 2>&1; unshare -r touch {OUT}/s',
  'curl -s --noproxy "*" --max-time 3 http://127.0.0.1:{PORT}/direct',
  'curl -s --max-time 3 http://127.0.0.1:{PORT}/via-proxy',
  'env -u HTTP_PROXY -u http_proxy curl -s --max-time 3 http://127.0.0.1:{PORT}/unset',
  'bash -c "echo GET / > /dev/tcp/127.0.0.1/{PORT}"',
  'python3 -c "import socket; socket.create_connection((\'127.0.0.1\', {PORT}), 3)"',
  'node -e "fetch(\'http://127.0.0.1:{PORT}/fetch\').catch(() => process.exit(1))"',
];

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/cairn-sandbox-corpus-'));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  home = path.join(root, 'home');
  for (const d of [ws, outside, home]) await fs.mkdir(d);
  // The corpora write to `X`, `Y`...: here each is a link to a file outside, so a write that lands is a write outside.
  for (const name of ['X', 'Y', 'Z', 'x', 'f', 'out', 'file']) await fs.symlink(path.join(outside, name), path.join(ws, name));
  process.env['HOME'] = home; // `~` in the corpora is a home we can check, not the machine's
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('reached\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  sandbox = await testSandbox(ws, { settings: { network: { allowedDomains: ['example.invalid'], allowAll: false } } });
});
afterAll(async () => {
  process.env['HOME'] = realHome;
  sandbox.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await fs.rm(root, { recursive: true, force: true });
});

describe('the bypass corpora under the sandbox in auto-allow mode', () => {
  it('writes nothing outside the workspace and reaches nothing off the allow list', { timeout: 600_000 }, async () => {
    const commands = [
      ...corpora.flatMap(corpusCommands),
      ...ownCorpus.map((c) => c.replaceAll('{OUT}', outside).replaceAll('{PORT}', String(port))),
    ];
    expect(commands.length).toBeGreaterThan(200);
    const bash = createBashTool({ sandbox });
    const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(root, 'cairn-home'), homeDir: home });
    const tally = { allow: 0, ask: 0, deny: 0, threw: 0 };
    for (const command of commands) {
      // A check that throws (realpath of /proc/1/root/... is EACCES) runs nothing; counted apart.
      const verdict = await checker.check(bash, { command }).catch(() => undefined);
      if (!verdict) {
        tally.threw += 1;
        continue;
      }
      tally[verdict.behavior] += 1;
      // Asked ones run too: a user who says yes still runs them in the sandbox.
      if (verdict.behavior === 'deny') continue;
      await bash.call({ command, timeout: 5_000 }, { cwd: ws, signal: new AbortController().signal });
    }
    expect(await fs.readdir(outside)).toEqual([]);
    expect(await fs.readdir(home)).toEqual([]);
    expect(hits).toEqual([]);
    // The corpus did run: most of it is let through in auto-allow mode.
    expect(tally.allow).toBeGreaterThan(50);
    expect(tally.threw).toBeLessThan(3);
  });
});
