import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { git } from '../helpers/test-git.js';

// `cairn -w feat` in a real terminal with WorktreeCreate / WorktreeRemove hooks (issue 37): the hook
// makes the worktree where it likes, the session works there, and "r" at the keep/remove question
// runs WorktreeRemove, which removes it (cairn never deletes what a hook made). A project's hook
// runs only once the folder is trusted: the trust question comes before it.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});
const exists = (p: string) => access(p).then(() => true, () => false);

async function setUp(where: 'user' | 'project') {
  const ws = await tempWorkspace({ 'a.txt': 'a\n' });
  const base = dirname(ws.dir);
  git(ws.dir, 'init', '-q', '-b', 'main');
  git(ws.dir, 'add', '.');
  git(ws.dir, 'commit', '-q', '-m', 'init');
  const create = join(base, 'create.sh');
  const remove = join(base, 'remove.sh');
  await writeFile(create, `#!/bin/sh\ncat > "${base}/create.json"\nname=$(sed 's/.*"name":"\\([^"]*\\)".*/\\1/' "${base}/create.json")\nd="${base}/elsewhere/$name"\ngit worktree add -q -b "hook-$name" "$d" HEAD >&2 && echo "$d"\n`, { mode: 0o755 });
  await writeFile(remove, `#!/bin/sh\ncat > "${base}/remove.json"\np=$(sed 's/.*"worktree_path":"\\([^"]*\\)".*/\\1/' "${base}/remove.json")\ngit -C "${ws.dir}" worktree remove "$p"\n`, { mode: 0o755 });
  const settings = JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: create }] }], WorktreeRemove: [{ hooks: [{ type: 'command', command: remove }] }] } });
  if (where === 'user') await writeFile(join(ws.home, 'settings.json'), settings);
  else {
    await mkdir(join(ws.dir, '.claude'));
    await writeFile(join(ws.dir, '.claude', 'settings.json'), settings);
  }
  const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, CLAUDE_CONFIG_DIR: join(ws.home, 'claude') }, columns: 110, rows: 36 });
  terminals.push(term);
  await term.waitForText('shell$');
  term.type(`node ${cairnBin} -w feat --permission-mode acceptEdits`);
  term.keys('Enter');
  return { ws, base, term, made: join(base, 'elsewhere', 'feat') };
}

describe.skipIf(!TmuxTerminal.available())('cairn -w with WorktreeCreate and WorktreeRemove hooks in a real terminal', () => {
  it('works in the folder the hook made; "r" on leaving runs WorktreeRemove, which removes it', async () => {
    const { ws, base, term, made } = await setUp('user');
    await term.waitForText('Ask cairn');
    expect(git(made, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('hook-feat');
    term.type('write hello to notes.md');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Wrote') && s.includes('Ask cairn') && !s.includes('esc to interrupt'), 'the write to end');
    expect(await readFile(join(made, 'notes.md'), 'utf8')).toBe('hello\n');
    expect(await exists(join(ws.dir, 'notes.md'))).toBe(false);
    git(made, 'add', 'notes.md');
    git(made, 'commit', '-q', '-m', 'notes');
    term.type('/exit');
    term.keys('Enter');
    await term.waitForText('Keep or remove the worktree? [K/r]');
    term.type('r');
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt after leaving');
    expect(screen).toContain(`the WorktreeRemove hooks removed ${made}`);
    expect(JSON.parse(await readFile(join(base, 'remove.json'), 'utf8'))).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: made });
    expect(await exists(made)).toBe(false);
    expect(git(ws.dir, 'show', 'hook-feat:notes.md')).toBe('hello\n');
  });

  it("a project's hook waits for the trust question: nothing runs before the answer, a yes runs it", async () => {
    const { base, term, made } = await setUp('project');
    const question = await term.waitForText('Trust this folder? [y/N]');
    expect(question).toContain('hooks');
    expect(await exists(join(base, 'create.json'))).toBe(false);
    term.type('y');
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    expect(await exists(join(base, 'create.json'))).toBe(true);
    expect(git(made, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('hook-feat');
    term.type('/exit');
    term.keys('Enter');
    await term.waitForText('Keep or remove the worktree? [K/r]');
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt after leaving');
    expect(screen).toContain(`kept the worktree ${made}`);
    expect(await exists(made)).toBe(true);
  });
});
