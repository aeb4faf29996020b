import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { git } from '../helpers/test-git.js';

// `cairn -p -w NAME` with a WorktreeCreate hook (issue 37): the hook replaces git's creation, as
// `claude -w` does; the session works in the folder it printed, which is checked as a subagent's is
// (a folder of its own: not /, not the workspace, not a folder inside a working tree, not a file,
// not nothing). A project's hook waits for trust: under -p git makes the worktree and a line says so.
const exists = (p: string) => access(p).then(() => true, () => false);

async function repoWithHook(body: string, where: 'user' | 'project' = 'user') {
  const ws = await tempWorkspace({ 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
  const base = dirname(ws.dir);
  git(ws.dir, 'init', '-q', '-b', 'main');
  git(ws.dir, 'add', '.');
  git(ws.dir, 'commit', '-q', '-m', 'init');
  const script = join(base, 'create.sh');
  // The hook reads its input, makes whatever it likes and prints a path (stderr is only shown).
  await writeFile(script, `#!/bin/sh\ncat > "${base}/create.json"\nname=$(sed 's/.*"name":"\\([^"]*\\)".*/\\1/' "${base}/create.json")\n${body}\n`, { mode: 0o755 });
  const settings = JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: script }] }] } });
  if (where === 'user') await writeFile(join(ws.home, 'settings.json'), settings);
  else {
    await mkdir(join(ws.dir, '.claude'));
    await writeFile(join(ws.dir, '.claude', 'settings.json'), settings);
  }
  return { ws, base };
}

const run = (ws: { dir: string; home: string }) =>
  runCairn(['-p', '-w', 'feat', '--permission-mode', 'acceptEdits', '--no-sandbox', 'write hello to notes.md'], { cwd: ws.dir, home: ws.home, env: { CLAUDE_CONFIG_DIR: join(ws.home, 'claude') }, timeoutMs: 60_000 });

// A real `git worktree add` somewhere of the hook's choosing, on a branch of its own naming.
const GIT_ADD = 'd="$(dirname "$0")/elsewhere/$name"\ngit worktree add -q -b "hook-$name" "$d" HEAD >&2 && echo "$d"';

describe('cairn -p -w with a WorktreeCreate hook', () => {
  it('runs the hook with the name and works where it printed: the write lands there, git made nothing of its own', async () => {
    const { ws, base } = await repoWithHook(GIT_ADD);
    const result = await run(ws);
    const made = join(base, 'elsewhere', 'feat');
    expect(result.code, result.stderr).toBe(0);
    const input = JSON.parse(await readFile(join(base, 'create.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({ hook_event_name: 'WorktreeCreate', name: 'feat', cwd: ws.dir, session_id: '', transcript_path: '' });
    expect(await readFile(join(made, 'notes.md'), 'utf8')).toBe('hello\n');
    expect(await exists(join(ws.dir, 'notes.md'))).toBe(false);
    expect(await exists(join(ws.dir, '.cairn', 'worktrees'))).toBe(false);
    expect(result.stderr).toContain(`cairn: working in ${made}, made by the WorktreeCreate hook (${join(ws.home, 'settings.json')} hooks.WorktreeCreate[0].hooks[0]) on the branch hook-feat`);
    expect(result.stderr).toContain(`cairn: kept the worktree ${made} (made by the WorktreeCreate hook`);
    expect(result.stderr).toContain('?? notes.md');
  }, 90_000);

  it.each([
    ['the filesystem root', 'echo /', 'printed /, which is the filesystem root'],
    ['the workspace itself', 'pwd', 'which is the workspace itself'],
    ['a folder inside the working tree', 'echo "$PWD/src"', 'not the top of a worktree'],
    ['a file', 'echo "$PWD/a.txt"', 'which is not a directory'],
    ['a relative path', 'echo elsewhere/feat', 'which is not an absolute path'],
    ['nothing', 'true', 'printed no worktree path'],
    ['a failure', 'echo no space left >&2; exit 3', 'failed: exited with 3: no space left'],
  ])('a hook printing %s is refused with a message naming it, and no session runs', async (_what, body, why) => {
    const { ws } = await repoWithHook(body);
    const result = await run(ws);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cairn: --worktree: the WorktreeCreate hook (');
    expect(result.stderr).toContain(why);
    expect(result.stderr).toContain('No session was started.');
    expect(result.stderr).not.toContain('working in');
    // Nothing ran: no write anywhere, no fall back to git.
    expect(await exists(join(ws.dir, 'notes.md'))).toBe(false);
    expect(await exists(join(ws.dir, 'src', 'notes.md'))).toBe(false);
    expect(await exists(join(ws.dir, '.cairn', 'worktrees'))).toBe(false);
  }, 90_000);

  it("a project's hook waits for trust under -p: git makes the worktree and a line says so; trusted, the hook makes it", async () => {
    const untrusted = await repoWithHook(GIT_ADD, 'project');
    const first = await run(untrusted.ws);
    expect(first.code, first.stderr).toBe(0);
    expect(await exists(join(untrusted.base, 'create.json'))).toBe(false);
    expect(first.stderr).toContain(`cairn: the WorktreeCreate hook in ${join(untrusted.ws.dir, '.claude', 'settings.json')} waits until you trust this folder`);
    expect(await readFile(join(untrusted.ws.dir, '.cairn', 'worktrees', 'feat', 'notes.md'), 'utf8')).toBe('hello\n');

    const trusted = await repoWithHook(GIT_ADD, 'project');
    await writeFile(join(trusted.ws.home, 'trusted-folders.json'), JSON.stringify({ folders: { [trusted.ws.dir]: {} } }));
    const second = await run(trusted.ws);
    expect(second.code, second.stderr).toBe(0);
    expect(await readFile(join(trusted.base, 'elsewhere', 'feat', 'notes.md'), 'utf8')).toBe('hello\n');
    expect(await exists(join(trusted.ws.dir, '.cairn', 'worktrees'))).toBe(false);
  }, 120_000);
});
