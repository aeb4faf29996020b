import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createSessionWorktree } from '../../src/worktrees/session-worktree.js';

/**
 * git in a test's own repository: a fixed author, no hooks and no signing, whatever the machine's
 * git config says. Returns stdout.
 */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgSign=false', ...args], { cwd, encoding: 'utf8' });

/** A repository in `dir` with `file` committed as `committed`, then changed to `changed` and not committed. */
export async function repoWithUncommittedChange(dir: string, file: string, committed: string, changed: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), committed);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', `add ${file}`);
  await writeFile(path.join(dir, file), changed);
}

/** The worktree folders real `git worktree list` gives, the main one first. */
export const gitWorktreeDirs = (cwd: string): string[] =>
  git(cwd, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length));

/** `dir` as a repository with cairn's own worktrees `clean-one` (nothing changed) and `dirty-one` (a new file, notes.txt); their folders. */
export async function repoWithCleanAndDirtyWorktrees(dir: string): Promise<{ clean: string; dirty: string }> {
  await writeFile(path.join(dir, 'a.txt'), 'a\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'init');
  const clean = await createSessionWorktree(dir, 'clean-one');
  const dirty = await createSessionWorktree(dir, 'dirty-one');
  await writeFile(path.join(dirty.dir, 'notes.txt'), 'unsaved\n');
  return { clean: clean.dir, dirty: dirty.dir };
}
