import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { createBashTool } from '../../../src/tools/bash.js';
import type { ToolResult } from '../../../src/tools/tool.js';
import { testSandbox } from '../../helpers/sandbox.js';

// With the sandbox on by default, git runs unasked inside it. What it writes must not make the user's
// next git command outside the sandbox run code: .git/hooks and .git/config stay read-only, and so do
// the places the repository's own configuration already runs from (core.hooksPath, core.fsmonitor...).
// Each attempt runs in real bubblewrap; afterwards a real git commit outside the sandbox shows
// whether anything planted runs.

let root: string;
let ws: string;
let sandbox: CommandSandbox;
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };

async function run(command: string): Promise<ToolResult> {
  const bash = createBashTool({ sandbox, env: GIT_ENV });
  return bash.call({ command }, { cwd: ws, signal: new AbortController().signal });
}
const git = (...args: string[]): string => execFileSync('git', args, { cwd: ws, encoding: 'utf8', env: GIT_ENV });
const marker = (): string => path.join(root, 'PLANTED-CODE-RAN');

/** The user's own commit, outside the sandbox: does anything the sandboxed command planted run? */
function userCommits(): boolean {
  try {
    git('commit', '-q', '--allow-empty', '-m', 'user');
  } catch {
    // A refused commit is fine; only the marker matters.
  }
  git('status', '--short');
  return existsSync(marker());
}

beforeEach(async () => {
  // Not under /tmp: inside, /tmp is the session's own.
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'cairn-git-escapes-')));
  ws = path.join(root, 'ws');
  await fs.mkdir(ws);
  git('init', '-q');
  await fs.writeFile(path.join(ws, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'init');
  sandbox = await testSandbox(ws);
  expect(sandbox.status().availability).toEqual({ available: true });
});
afterEach(async () => {
  sandbox.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe('git in the sandbox', () => {
  it('adds and commits workspace files, and commits none of the placeholders that guard absent protected names', async () => {
    const r = await run('echo b > b.txt && mkdir -p src && echo c > src/c.txt && git add -A && git commit -q -m work && git show --name-only --format= HEAD');
    expect(r.isError, r.content).toBeFalsy();
    expect(r.content.split('\n').sort()).toEqual(['b.txt', 'src/c.txt']);
    expect(git('status', '--short')).toBe('');
    expect(existsSync(path.join(ws, '.mcp.json'))).toBe(false);
  });

  it('cannot change the repository configuration or hooks, through git or around it', async () => {
    const before = await fs.readFile(path.join(ws, '.git/config'), 'utf8');
    const hook = `#!/bin/sh\ntouch ${marker()}\n`;
    await fs.writeFile(path.join(ws, 'evil.sh'), hook, { mode: 0o755 });
    const attempts = [
      'git config core.hooksPath .',
      'git config core.fsmonitor ./evil.sh',
      'git config core.pager ./evil.sh',
      'git config --global core.hooksPath ' + ws,
      'git config alias.st "!./evil.sh"',
      'cp evil.sh .git/hooks/pre-commit',
      'cp evil.sh .git/hooks/post-commit && chmod +x .git/hooks/post-commit',
      'printf "[core]\\n\\thooksPath = .\\n" >> .git/config',
      'mkdir -p .git/info && echo "* filter=x" > .git/info/attributes',
      'echo "gitdir: ." > .git/commondir',
      'cp -a .git .git2 && cp evil.sh .git2/hooks/pre-commit && mv .git .git-old && mv .git2 .git',
    ];
    for (const attempt of attempts) await run(attempt);
    expect(await fs.readFile(path.join(ws, '.git/config'), 'utf8')).toBe(before);
    expect(existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(path.join(ws, '.git/hooks/post-commit'))).toBe(false);
    expect(existsSync(path.join(ws, '.git/commondir'))).toBe(false);
    expect(existsSync(path.join(ws, '.git-old'))).toBe(false);
    expect(userCommits()).toBe(false);
  });

  it('keeps the hooks folder the repository configured (core.hooksPath) read-only, and uncreatable while absent', async () => {
    git('config', 'core.hooksPath', '.githooks');
    const plant = `mkdir -p .githooks; printf '#!/bin/sh\\ntouch ${marker()}\\n' > .githooks/pre-commit; chmod +x .githooks/pre-commit`;
    const absent = await run(plant);
    expect(absent.isError).toBe(true);
    expect(existsSync(path.join(ws, '.githooks'))).toBe(false);
    expect(userCommits()).toBe(false);

    await fs.mkdir(path.join(ws, '.githooks'));
    await fs.writeFile(path.join(ws, '.githooks/pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const present = await run(`${plant}; mv .githooks .old-hooks`);
    expect(present.isError).toBe(true);
    expect(present.content).toContain('The sandbox refused writing');
    expect(await fs.readFile(path.join(ws, '.githooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(userCommits()).toBe(false);
  });

  it('keeps a deeper absent hooks folder uncreatable from its first missing folder', async () => {
    git('config', 'core.hooksPath', 'tools/git/hooks');
    const r = await run(`mkdir -p tools/git/hooks && printf '#!/bin/sh\\ntouch ${marker()}\\n' > tools/git/hooks/pre-commit && chmod +x tools/git/hooks/pre-commit`);
    expect(r.isError).toBe(true);
    expect(existsSync(path.join(ws, 'tools'))).toBe(false);
    expect(userCommits()).toBe(false);
  });

  it('keeps the program core.fsmonitor names read-only, and its folder in place', async () => {
    await fs.mkdir(path.join(ws, 'scripts'));
    await fs.writeFile(path.join(ws, 'scripts/fsmon.sh'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    git('config', 'core.fsmonitor', './scripts/fsmon.sh');
    const evil = `#!/bin/sh\\ntouch ${marker()}\\n`;
    const r = await run(`printf '${evil}' > scripts/fsmon.sh; mv scripts scripts-old; mkdir -p scripts && printf '${evil}' > scripts/fsmon.sh && chmod +x scripts/fsmon.sh`);
    expect(r.isError).toBe(true);
    expect(await fs.readFile(path.join(ws, 'scripts/fsmon.sh'), 'utf8')).toBe('#!/bin/sh\nexit 1\n');
    expect(userCommits()).toBe(false);
    // Other files in that folder stay the workspace's own.
    expect((await run('echo ok > scripts/other.txt && cat scripts/other.txt')).content).toBe('ok');
  });
});
