import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { createBashTool } from '../../../src/tools/bash.js';
import type { ToolResult } from '../../../src/tools/tool.js';
import { testSandbox } from '../../helpers/sandbox.js';

// Real commands under the real bubblewrap sandbox: what a command may and may not write.

let root: string;
let ws: string;
let outside: string;
let sandbox: CommandSandbox;
const tag = `cairn-sbx-${process.pid}-${Date.now()}`;

async function run(command: string, sb: CommandSandbox = sandbox): Promise<ToolResult> {
  const bash = createBashTool({ sandbox: sb });
  return bash.call({ command }, { cwd: ws, signal: new AbortController().signal });
}

beforeEach(async () => {
  // Not under /tmp: inside, /tmp is the session's own, so paths there would not even be the host's.
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'cairn-sandbox-fs-')));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  await fs.mkdir(ws);
  await fs.mkdir(outside);
  sandbox = await testSandbox(ws);
  expect(sandbox.status().availability).toEqual({ available: true });
});
afterEach(async () => {
  sandbox.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe('the sandbox file system', () => {
  it('lets a command write inside the workspace', async () => {
    const r = await run('echo hello > made.txt && mkdir -p sub/dir && echo deep > sub/dir/f && cat made.txt');
    expect(r.isError).toBeFalsy();
    expect(r.content).toBe('hello');
    expect(await fs.readFile(path.join(ws, 'sub/dir/f'), 'utf8')).toBe('deep\n');
  });

  it('refuses a write outside the workspace and names the path', async () => {
    const target = path.join(outside, 'escaped.txt');
    const r = await run(`echo pwned > ${target}`);
    expect(r.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(r.content).toContain(`The sandbox refused writing ${target}`);
    expect(r.content).toContain('dangerously_disable_sandbox');
  });

  it('refuses writes through a symlink that points outside', async () => {
    await fs.symlink(outside, path.join(ws, 'link'));
    await fs.symlink(path.join(outside, 'file.txt'), path.join(ws, 'dangling'));
    const r = await run('echo a > link/via-dir.txt; echo b > dangling; cp /etc/hostname link/copied; ln -s x link/newlink');
    expect(r.isError).toBe(true);
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('refuses writes into the home directory', async () => {
    const target = path.join(os.homedir(), `${tag}.txt`);
    const r = await run(`touch ${target}; echo x >> ~/.bashrc-${tag}`);
    expect(r.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(path.join(os.homedir(), `.bashrc-${tag}`))).toBe(false);
  });

  it('keeps protected paths read-only inside the workspace', async () => {
    await fs.mkdir(path.join(ws, '.git/hooks'), { recursive: true });
    await fs.writeFile(path.join(ws, '.git/config'), '[core]\n');
    await fs.mkdir(path.join(ws, '.claude'));
    const r = await run(
      [
        'echo evil > .git/hooks/pre-commit',
        'echo "[alias] x = !evil" >> .git/config',
        'echo "{}" > .claude/settings.local.json',
        'echo "{}" > .mcp.json',
        'echo "{}" > .hooks.json',
        'mkdir -p .cairn && echo "{}" > .cairn/settings.json',
        'echo ok > .git/HEAD-ish',
      ].join('; '),
    );
    expect(r.content).toContain('The sandbox refused writing');
    expect(existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(await fs.readFile(path.join(ws, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(path.join(ws, '.claude/settings.local.json'))).toBe(false);
    // The placeholders that guarded the absent names are gone again.
    expect(existsSync(path.join(ws, '.mcp.json'))).toBe(false);
    expect(existsSync(path.join(ws, '.hooks.json'))).toBe(false);
    expect(existsSync(path.join(ws, '.cairn'))).toBe(false);
    // The rest of .git stays writable (git commit must work).
    expect(await fs.readFile(path.join(ws, '.git/HEAD-ish'), 'utf8')).toBe('ok\n');
  });

  it('keeps .git in place: a copy with writable hooks cannot be swapped in for it', async () => {
    await fs.mkdir(path.join(ws, '.git/hooks'), { recursive: true });
    await fs.writeFile(path.join(ws, '.git/config'), '[core]\n');
    // .git/hooks is read-only, but .git itself was not: renaming it and moving a doctored copy in
    // left a hook that runs outside the sandbox at the next commit.
    const swap = (dir: string) => `cp -a ${dir}/.git ${dir}/.gitnew && echo evil > ${dir}/.gitnew/hooks/pre-commit && echo "[core] hooksPath = /x" > ${dir}/.gitnew/config && mv ${dir}/.git ${dir}/.gitold && mv ${dir}/.gitnew ${dir}/.git`;
    await run(swap('.'));
    expect(existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(await fs.readFile(path.join(ws, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(path.join(ws, '.gitold'))).toBe(false);
    // The rest of .git stays writable (git commit must work).
    expect((await run('echo ok > .git/HEAD-ish && cat .git/HEAD-ish')).content).toBe('ok');
  });

  it('keeps a submodule\'s git folder read-only (its config and hooks run at the parent\'s next git status)', async () => {
    await fs.mkdir(path.join(ws, '.git/modules/lib/hooks'), { recursive: true });
    await fs.writeFile(path.join(ws, '.git/modules/lib/config'), '[core]\n');
    const r = await run('echo "[core] fsmonitor = ./evil.sh" >> .git/modules/lib/config; echo evil > .git/modules/lib/hooks/post-checkout; mv .git/modules .git/m2');
    expect(r.isError).toBe(true);
    expect(await fs.readFile(path.join(ws, '.git/modules/lib/config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(path.join(ws, '.git/modules/lib/hooks/post-checkout'))).toBe(false);
    expect(existsSync(path.join(ws, '.git/m2'))).toBe(false);
  });

  it('keeps a workspace without them from gaining .vscode or .husky (tasks and hooks that run on their own later)', async () => {
    const r = await run(`mkdir -p .vscode && echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json; mkdir -p .husky && echo evil > .husky/pre-commit`);
    expect(r.isError).toBe(true);
    expect(existsSync(path.join(ws, '.vscode'))).toBe(false);
    expect(existsSync(path.join(ws, '.husky'))).toBe(false);
  });

  it('keeps a fresh workspace from gaining a .git with hooks (git init inside is refused)', async () => {
    const r = await run('mkdir -p .git/hooks && echo evil > .git/hooks/post-checkout');
    expect(r.isError).toBe(true);
    expect(existsSync(path.join(ws, '.git'))).toBe(false);
  });

  it('gives the session a /tmp of its own, kept between its commands, and hides the host /tmp and /run', async () => {
    await fs.writeFile(`/tmp/${tag}-host`, 'host');
    try {
      const r = await run(`echo t > /tmp/${tag} && echo "$TMPDIR"; ls /tmp/${tag}-host 2>&1; ls /run | wc -l`);
      expect(r.content.split('\n')).toEqual(['/tmp', expect.stringContaining('No such file'), '0']);
      expect(existsSync(`/tmp/${tag}`)).toBe(false);
      expect(await fs.readFile(path.join(sandbox.status().policy.tempDir, tag), 'utf8')).toBe('t\n');
      expect((await run(`cat /tmp/${tag}`)).content).toBe('t');
    } finally {
      await fs.rm(`/tmp/${tag}-host`, { force: true });
    }
  });

  it('cannot reach the host\'s Unix sockets (a tmux or docker socket would be a way out)', async () => {
    // Where tmux, ssh-agent and X11 keep theirs (sockets elsewhere: sandbox-sockets.test.ts).
    const sock = path.join(os.tmpdir(), `${tag}.sock`);
    const net = await import('node:net');
    const server = net.createServer((c) => c.end('escaped\n'));
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      const r = await run(`socat - UNIX-CONNECT:${sock} </dev/null 2>&1 || echo refused`);
      expect(r.content).not.toContain('escaped');
      expect(r.content).toContain('refused');
    } finally {
      server.close();
      await fs.rm(sock, { force: true });
    }
  });

  it('writes to an additional directory', async () => {
    const extra = await testSandbox(ws, { additionalDirectories: [outside] });
    try {
      const r = await run(`echo shared > ${outside}/ok.txt`, extra);
      expect(r.isError).toBeFalsy();
      expect(await fs.readFile(path.join(outside, 'ok.txt'), 'utf8')).toBe('shared\n');
    } finally {
      extra.close();
    }
  });

  it('runs an excluded command outside the sandbox', async () => {
    const target = path.join(outside, 'excluded.txt');
    const excluded = await testSandbox(ws, { settings: { excludedCommands: ['touch *'] } });
    try {
      expect(excluded.sandboxes(`touch ${target}`)).toBe(false);
      expect(excluded.sandboxes(`echo hi > ${target}`)).toBe(true);
      await run(`touch ${target}`, excluded);
      expect(existsSync(target)).toBe(true);
    } finally {
      excluded.close();
    }
  });

  it('runs outside only when the call asks for it, the user approved it and allowUnsandboxedCommands allows it', async () => {
    const target = path.join(outside, 'unsandboxed.txt');
    const bash = createBashTool({ sandbox });
    const signal = new AbortController().signal;
    // Unasked (the permission chain never lets such a call through unasked, but the tool holds the line too).
    const refused = await bash.call({ command: `touch ${target}`, dangerously_disable_sandbox: true }, { cwd: ws, signal });
    expect(refused.content).toContain('outside the sandbox only when the user');
    expect(existsSync(target)).toBe(false);
    await bash.call({ command: `touch ${target}`, dangerously_disable_sandbox: true }, { cwd: ws, signal, approval: { byUser: true, readOnly: false } });
    expect(existsSync(target)).toBe(true);

    const strict = await testSandbox(ws, { settings: { allowUnsandboxedCommands: false } });
    try {
      const strictBash = createBashTool({ sandbox: strict });
      // Not offered: the schema drops the field, and the call stays in the sandbox.
      const parsed = strictBash.inputSchema.parse({ command: 'x', dangerously_disable_sandbox: true }) as Record<string, unknown>;
      expect(parsed['dangerously_disable_sandbox']).toBeUndefined();
      const r = await strict.prepare(`touch ${target}2`, { disable: true, approval: { byUser: true, readOnly: false } });
      expect(r).toEqual({ refuse: expect.stringContaining('allowUnsandboxedCommands') });
    } finally {
      strict.close();
    }
  });
});
