import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { git } from '../helpers/test-git.js';

// `cairn -w feat` in a real terminal (issue 38 item 1): the worktree and branch are made, a write
// lands there and not in the main tree, and leaving keeps or removes it as answered.
const { start } = cairnTerminals();
const prepare = (ws: { dir: string }) => {
  git(ws.dir, 'init', '-q', '-b', 'main');
  git(ws.dir, 'add', '.');
  git(ws.dir, 'commit', '-q', '-m', 'init');
};
const exists = (file: string) => access(file).then(() => true, () => false);

describe.skipIf(!TmuxTerminal.available())('cairn -w in a real terminal', () => {
  it.each([
    ['r', false],
    ['k', true],
  ] as const)('answering %s on leaving: kept %s', async (answer, kept) => {
    const { term, ws } = await start({ args: '-w feat --permission-mode acceptEdits', columns: 110, rows: 36, files: { 'a.txt': 'a\n' }, prepare });
    const wt = join(ws.dir, '.cairn', 'worktrees', 'feat');
    expect(git(wt, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feat');
    term.type('write hello to notes.md');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Wrote') && s.includes('Ask cairn') && !s.includes('esc to interrupt'), 'the write to end');
    expect(await readFile(join(wt, 'notes.md'), 'utf8')).toBe('hello\n');
    expect(await exists(join(ws.dir, 'notes.md'))).toBe(false);
    // Committed, so the worktree has no uncommitted work and may be removed.
    git(wt, 'add', 'notes.md');
    git(wt, 'commit', '-q', '-m', 'notes');
    term.type('/exit');
    term.keys('Enter');
    await term.waitForText('Keep or remove the worktree? [K/r]');
    term.type(answer);
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt after leaving');
    expect(await exists(wt), screen).toBe(kept);
    expect(git(ws.dir, 'show', 'feat:notes.md')).toBe('hello\n');
  });
});
