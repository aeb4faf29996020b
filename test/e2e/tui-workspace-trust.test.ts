import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

// Workspace trust in the built cairn: a cloned repository's .claude/settings.json that would widen
// what cairn may do is asked about once, in a real terminal, and the answer remembered.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

const cloned = {
  '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(touch pwned)'], deny: ['Read(./secret.txt)'] } }),
  'secret.txt': 'the secret',
};

async function launch(ws: { dir: string; home: string }): Promise<TmuxTerminal> {
  const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, CLAUDE_CONFIG_DIR: join(ws.home, 'claude') } });
  terminals.push(term);
  await term.waitForText('shell$');
  term.type(`node ${cairnBin}`);
  term.keys('Enter');
  return term;
}

describe.skipIf(!TmuxTerminal.available())('workspace trust', () => {
  it('asks once, naming what the folder would allow; a yes is remembered and the next start does not ask', async () => {
    const ws = await tempWorkspace(cloned);
    const term = await launch(ws);
    const screen = await term.waitForText('Trust this folder? [y/N]');
    expect(screen).toContain(`${join(ws.dir, '.claude', 'settings.json')}: permissions.allow (1 entry)`);
    expect(screen).not.toContain('Ask cairn');
    term.type('y');
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    const stored = JSON.parse(await readFile(join(ws.home, 'trusted-folders.json'), 'utf8')) as { folders: Record<string, unknown> };
    expect(Object.keys(stored.folders)).toEqual([ws.dir]);
    term.keys('C-d');
    term.keys('C-d');
    await term.waitForText('shell$');
    // The second start goes straight to the app.
    const again = await launch(ws);
    const first = await again.waitForScreen((s) => s.includes('Ask cairn') || s.includes('Trust this folder'), 'the app or the question');
    expect(first).not.toContain('Trust this folder');
  });

  it('y and Enter typed at launch, before the question could be read, are ignored (and it says so): the folder is not trusted and its SessionStart hook does not run; a y after the guard trusts it', async () => {
    const ws = await tempWorkspace({
      '.claude/settings.json': JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch hook-ran' }] }] } }),
    });
    const marker = join(ws.dir, 'hook-ran');
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, CLAUDE_CONFIG_DIR: join(ws.home, 'claude') } });
    terminals.push(term);
    await term.waitForText('shell$');
    // Type-ahead: the answer is in the terminal before cairn has drawn anything.
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    term.type('y');
    term.keys('Enter');
    const after = await term.waitForScreen((s) => s.includes('Ask cairn') || s.includes('were ignored'), 'the app or the notice of ignored keys');
    expect(after).not.toContain('Ask cairn');
    expect(after).toContain('Keys typed before this question could be read were ignored.');
    await expect(readFile(join(ws.home, 'trusted-folders.json'))).rejects.toThrow(/ENOENT/);
    await expect(access(marker)).rejects.toThrow(/ENOENT/);

    // Once the question asks for an answer, a y is one.
    await term.waitForScreen((s) => s.trimEnd().endsWith('Trust this folder? [y/N]'), 'the answer line');
    term.type('y');
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    const stored = JSON.parse(await readFile(join(ws.home, 'trusted-folders.json'), 'utf8')) as { folders: Record<string, unknown> };
    expect(Object.keys(stored.folders)).toEqual([ws.dir]);
    await waitFor(() => access(marker));
  });

  it('a no starts cairn without the widening settings and asks again next time; a folder with nothing to widen is never asked about', async () => {
    const ws = await tempWorkspace(cloned);
    const term = await launch(ws);
    await term.waitForText('Trust this folder? [y/N]');
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    await term.waitForText('not trusted');
    await expect(readFile(join(ws.home, 'trusted-folders.json'))).rejects.toThrow(/ENOENT/);

    const plain = await tempWorkspace({ '.claude/settings.json': JSON.stringify({ permissions: { deny: ['Bash(rm *)'] } }) });
    const other = await launch(plain);
    const first = await other.waitForScreen((s) => s.includes('Ask cairn') || s.includes('Trust this folder'), 'the app or the question');
    expect(first).not.toContain('Trust this folder');
  });
});

describe('workspace trust, headless', () => {
  it("-p never asks: the folder's allow rules wait (named on stderr), its deny rules apply at once", async () => {
    const ws = await tempWorkspace(cloned);
    const env = { CLAUDE_CONFIG_DIR: join(ws.home, 'claude') };
    // --no-sandbox: whether the folder's allow rule applies, not the sandbox's own yes to a workspace command.
    const untrusted = await runCairn(['-p', 'run touch pwned', '--output-format', 'stream-json', '--no-sandbox'], { cwd: ws.dir, home: ws.home, env });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain('This folder is not trusted, so these settings from its files are not applied');
    expect(untrusted.stderr).toContain('permissions.allow (1 entry)');
    expect(ofType(untrusted.events, 'permission_denied').map((d) => d.name)).toEqual(['bash']);
    await expect(access(join(ws.dir, 'pwned'))).rejects.toThrow(/ENOENT/);
    const secret = await runCairn(['-p', 'run cat secret.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env });
    expect(ofType(secret.events, 'permission_denied')[0]?.reason).toMatch(/secret\.txt/);
  }, 60_000); // two runs of the built cairn: ~23 s seen on a loaded machine

  it("-p in a folder Claude Code was told to trust (~/.claude.json): the folder's allow rule applies", async () => {
    const ws = await tempWorkspace(cloned);
    const env = { CLAUDE_CONFIG_DIR: join(ws.home, 'claude') };
    await mkdir(join(ws.home, 'claude'), { recursive: true });
    await writeFile(join(ws.home, 'claude', '.claude.json'), JSON.stringify({ projects: { [ws.dir]: { hasTrustDialogAccepted: true } } }));
    const trusted = await runCairn(['-p', 'run touch pwned', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env });
    expect(trusted.stderr).not.toContain('not trusted');
    expect(ofType(trusted.events, 'permission_denied')).toEqual([]);
    await access(join(ws.dir, 'pwned'));
  });
});
