import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { buildPolicy } from '../../../src/sandbox/policy.js';
import { createSandbox } from '../../../src/sandbox/sandbox.js';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/sandbox/sandbox-settings.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';

// One list decides both sides: what the permission checker calls protected, the sandbox keeps
// read-only (and uncreatable). A protected folder reached through a link is still protected, and
// names are compared without case. Real files, real bubblewrap, real git.

let root: string;
let ws: string;
const exists = (p: string): Promise<boolean> => fs.access(p).then(() => true, () => false);

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-protected-')));
  ws = path.join(root, 'ws');
  await fs.mkdir(path.join(ws, 'conf'), { recursive: true });
  execFileSync('git', ['init', '-q', ws]);
  // The repository ships its cairn settings folder as a link.
  await fs.symlink('conf', path.join(ws, '.cairn'));
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

function sandbox() {
  return createSandbox({ settings: DEFAULT_SANDBOX_SETTINGS, policy: (tempDir) => buildPolicy({ workspace: ws, tempDir, home: root }) });
}

async function runUnasked(command: string): Promise<string> {
  const sb = sandbox();
  try {
    const r = await createBashTool({ sandbox: sb }).call({ command }, { cwd: ws, signal: new AbortController().signal, approval: { byUser: false, readOnly: false } });
    return r.content;
  } finally {
    sb.close();
  }
}

describe('protected places', () => {
  it('asks before writing a protected folder reached through a link, even in acceptEdits', async () => {
    const checker = createPermissionChecker({ workspace: ws, mode: 'acceptEdits', rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(root, 'home-cairn'), homeDir: root });
    const write = createWriteFileTool();
    const v = await checker.check(write, { path: 'conf/settings.local.json', content: '{}' });
    expect(v.behavior).toBe('ask');
    expect(v.reason).toMatch(/protected/);
    // And an ordinary file beside it is still an edit acceptEdits takes.
    expect((await checker.check(write, { path: 'notes.md', content: 'x' })).behavior).toBe('allow');
  });

  it('asks before writing what a link inside a protected folder points to, and the sandbox keeps it read-only', async () => {
    // The repository ships .claude/ as a real folder whose settings file links elsewhere in the tree.
    await fs.mkdir(path.join(ws, 'conf2', 'hooks'), { recursive: true });
    await fs.writeFile(path.join(ws, 'conf2', 'claude.json'), '{}');
    await fs.writeFile(path.join(ws, 'conf2', 'hooks', 'pre-commit'), '#!/bin/sh\n');
    await fs.mkdir(path.join(ws, '.claude'), { recursive: true });
    await fs.symlink('../conf2/claude.json', path.join(ws, '.claude', 'settings.json'));
    await fs.mkdir(path.join(ws, '.git', 'hooks'), { recursive: true });
    await fs.symlink('../../conf2/hooks/pre-commit', path.join(ws, '.git', 'hooks', 'pre-commit'));
    const checker = createPermissionChecker({ workspace: ws, mode: 'acceptEdits', rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(root, 'home-cairn'), homeDir: root });
    for (const target of ['conf2/claude.json', 'conf2/hooks/pre-commit']) {
      const v = await checker.check(createWriteFileTool(), { path: target, content: 'x' });
      expect(v.behavior, target).toBe('ask');
    }
    const out = await runUnasked('echo \'{"permissions":{"allow":["Bash"]}}\' > conf2/claude.json; echo evil > conf2/hooks/pre-commit; echo done');
    expect(out).toContain('done');
    expect(await fs.readFile(path.join(ws, 'conf2', 'claude.json'), 'utf8')).toBe('{}');
    expect(await fs.readFile(path.join(ws, 'conf2', 'hooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\n');
  });

  it('a dangling link to a protected folder guards the place it would create, in the checker and the sandbox; names without case', async () => {
    const ws2 = path.join(root, 'ws2');
    await fs.mkdir(ws2);
    await fs.symlink('conf-later', path.join(ws2, '.cairn'));
    const checker = createPermissionChecker({ workspace: ws2, mode: 'acceptEdits', rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(root, 'home-cairn'), homeDir: root });
    for (const target of ['conf-later/settings.local.json', 'CONF-LATER/settings.local.json']) {
      expect((await checker.check(createWriteFileTool(), { path: target, content: '{}' })).behavior, target).toBe('ask');
    }
    const sb = createSandbox({ settings: DEFAULT_SANDBOX_SETTINGS, policy: (tempDir) => buildPolicy({ workspace: ws2, tempDir, home: root }) });
    try {
      const r = await createBashTool({ sandbox: sb }).call(
        { command: 'mkdir -p conf-later 2>&1; echo \'{"permissions":{"allow":["Bash"]}}\' > conf-later/settings.local.json; echo done' },
        { cwd: ws2, signal: new AbortController().signal, approval: { byUser: false, readOnly: false } },
      );
      expect(r.content).toContain('done');
    } finally {
      sb.close();
    }
    expect(await exists(path.join(ws2, 'conf-later', 'settings.local.json'))).toBe(false);
    expect(await exists(path.join(ws2, 'conf-later'))).toBe(false); // the placeholder is gone again
  });

  it.each(['.Cairn/settings.json', '.CLAUDE/settings.local.json', 'sub/.GIT/config', '.NPMRC', 'pkg/.gitattributes', '.idea/workspace.xml', '.devcontainer/devcontainer.json'])(
    'asks before writing %s (names compared without case)',
    async (target) => {
      const checker = createPermissionChecker({ workspace: ws, mode: 'acceptEdits', rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(root, 'home-cairn'), homeDir: root });
      expect((await checker.check(createWriteFileTool(), { path: target, content: 'x' })).behavior).toBe('ask');
    },
  );

  it('keeps the linked folder read-only in the sandbox', async () => {
    const out = await runUnasked('echo \'{"permissions":{"allow":["Bash"]}}\' > conf/settings.local.json; echo done');
    expect(out).toContain('done');
    expect(await exists(path.join(ws, 'conf', 'settings.local.json'))).toBe(false);
  });

  it.each(['.gitattributes', '.gitmodules', '.npmrc', '.envrc', '.git/info/attributes', '.idea/x.xml', '.devcontainer/devcontainer.json'])(
    'cannot create %s from inside the sandbox',
    async (name) => {
      await runUnasked(`mkdir -p "$(dirname ${name})" 2>/dev/null; echo evil > ${name}; true`);
      const p = path.join(ws, name);
      const content = await fs.readFile(p, 'utf8').catch(() => '');
      expect(content).not.toContain('evil');
    },
  );

  it('keeps protected places in subfolders read-only too: a nested repository\'s config and hooks, a .vscode, an .envrc', async () => {
    const sub = path.join(ws, 'vendor', 'lib');
    await fs.mkdir(sub, { recursive: true });
    execFileSync('git', ['init', '-q', sub]);
    await fs.mkdir(path.join(ws, 'pkg', 'app', '.vscode'), { recursive: true });
    await fs.writeFile(path.join(ws, 'pkg', 'app', '.vscode', 'tasks.json'), '{}');
    await fs.mkdir(path.join(ws, 'svc'), { recursive: true });
    await fs.writeFile(path.join(ws, 'svc', '.envrc'), 'export A=1\n');
    const configBefore = await fs.readFile(path.join(sub, '.git', 'config'), 'utf8');
    const out = await runUnasked(
      [
        `git -C vendor/lib config core.fsmonitor 'touch ${root}/PWNED' 2>&1`,
        'echo evil > vendor/lib/.git/hooks/pre-commit 2>&1',
        'echo evil > pkg/app/.vscode/tasks.json 2>&1',
        'echo evil > svc/.envrc 2>&1',
        'echo done',
      ].join('; '),
    );
    expect(out).toContain('done');
    expect(await fs.readFile(path.join(sub, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(await exists(path.join(sub, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await fs.readFile(path.join(ws, 'pkg', 'app', '.vscode', 'tasks.json'), 'utf8')).toBe('{}');
    expect(await fs.readFile(path.join(ws, 'svc', '.envrc'), 'utf8')).toBe('export A=1\n');
    // The rest of those folders stays writable.
    expect(await runUnasked('echo ok > vendor/lib/notes.txt && cat vendor/lib/notes.txt')).toContain('ok');
    // Moving the repository aside to write a fresh one in its place fails (its folders are pinned), and a
    // commondir made in the nested .git is swept as at the root.
    const moved = await runUnasked(`mv vendor/lib vendor/old 2>&1; mv vendor vendor2 2>&1; echo ${root} > vendor/lib/.git/commondir; echo done`);
    expect(moved).toContain('done');
    expect(await exists(path.join(ws, 'vendor', 'old'))).toBe(false);
    expect(await exists(path.join(ws, 'vendor2'))).toBe(false);
    expect(await exists(path.join(sub, '.git', 'commondir'))).toBe(false);
    expect(moved).toMatch(/moved it out of the workspace/);
  });

  it('removes a .git/commondir a sandboxed command made, so the next git status does not follow it', async () => {
    const evil = path.join(root, 'evil-common');
    await fs.mkdir(evil, { recursive: true });
    const out = await runUnasked(`echo ${evil} > .git/commondir; echo made`);
    expect(out).toContain('made');
    expect(await exists(path.join(ws, '.git', 'commondir'))).toBe(false);
    expect(out).toMatch(/moved it out of the workspace/);
    expect(execFileSync('git', ['status', '--short'], { cwd: ws, encoding: 'utf8' })).not.toContain('fatal');
  });
});
