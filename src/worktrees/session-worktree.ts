import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { safeGit } from '../util/safe-git.js';

/**
 * `cairn -w [name]` (issue 38 item 1): the session runs in a new git worktree on a new branch, under
 * `.cairn/worktrees/<name>` of the repository, with the ignored files `.worktreeinclude` lists
 * (`.env`, say) copied in. Every git call goes through safe-git: checking the worktree out runs
 * none of the repository's hooks, filters or fsmonitor.
 */
export interface SessionWorktree {
  name: string;
  branch: string;
  /** The worktree's folder (the session's workspace). */
  dir: string;
  /** The repository's top level it was made from. */
  repo: string;
  /** Files copied in because `.worktreeinclude` lists them. */
  copied: string[];
}

/** A name git accepts as a branch and cairn as one folder. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function worktreeDir(repo: string, name: string): string {
  return path.join(repo, '.cairn', 'worktrees', name);
}

/** A default name when none is given: the date and time, to the second. */
export function defaultWorktreeName(now: Date): string {
  return `cairn-${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}`;
}

/** Throws, naming the name, unless git takes it as a branch and cairn as one folder. */
export function checkWorktreeName(name: string, label: string): void {
  if (!NAME.test(name) || name.includes('..') || name.endsWith('.lock')) {
    throw new Error(`${label}: "${name}" is not a usable name (letters, digits, . _ -, at most 64, not starting with . or -)`);
  }
}

/**
 * Creates the worktree and its branch from HEAD; rejects with a message that names the cause and what
 * to do, starting with `label` (what asked for it: `--worktree`, or a subagent's `isolation: worktree`).
 */
export async function createSessionWorktree(cwd: string, name: string, label = '--worktree'): Promise<SessionWorktree> {
  checkWorktreeName(name, label);
  let repo: string;
  try {
    repo = (await safeGit('rev-parse', ['--show-toplevel'], { cwd })).trim();
  } catch (error) {
    const message = errorMessage(error);
    if (/not found in any absolute PATH/.test(message)) throw new Error(`${label} needs git, which is not on the PATH`, { cause: error });
    throw new Error(`${label} needs a git repository: ${cwd} is not in one (${message})`, { cause: error });
  }
  const born = await safeGit('rev-parse', ['--verify', '--quiet', 'HEAD'], { cwd: repo }).then(() => true, () => false);
  if (!born) throw new Error(`${label}: the repository ${repo} has no commit yet, and a worktree starts from HEAD; commit first`);
  const dir = worktreeDir(repo, name);
  const exists = await fs.lstat(dir).then(() => true, () => false);
  if (exists) throw new Error(`${label}: ${path.relative(repo, dir)} exists already; continue there with cd ${dir} && cairn -c, or pick another name`);
  const taken = await safeGit('rev-parse', ['--verify', '--quiet', `refs/heads/${name}`], { cwd: repo }).then(() => true, () => false);
  if (taken) throw new Error(`${label}: a branch named ${name} exists already; pick another name`);
  try {
    await safeGit('worktree', ['add', '-q', '-b', name, dir, 'HEAD'], { cwd: repo, config: ['submodule.recurse=false'], timeoutMs: 120_000 });
  } catch (error) {
    throw new Error(`${label}: git could not create ${dir}: ${errorMessage(error)}`, { cause: error });
  }
  const copied = await copyIncluded(repo, dir);
  return { name, branch: name, dir: await fs.realpath(dir), repo, copied };
}

/** Copies the ignored files `.worktreeinclude` (gitignore patterns) lists; returns their repository-relative paths. */
async function copyIncluded(repo: string, dir: string): Promise<string[]> {
  const include = path.join(repo, '.worktreeinclude');
  if (!(await fs.stat(include).then((s) => s.isFile(), () => false))) return [];
  const list = async (args: string[]) => new Set((await safeGit('ls-files', ['--others', '--ignored', '-z', ...args], { cwd: repo, maxBuffer: 64 << 20 })).split('\0').filter((p) => p !== ''));
  const listed = await list([`--exclude-from=${include}`]);
  const ignored = await list(['--exclude-standard']);
  const copied: string[] = [];
  for (const rel of [...listed].filter((p) => ignored.has(p) && !p.startsWith('.cairn/')).sort()) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.copyFile(path.join(repo, rel), path.join(dir, rel));
    copied.push(rel);
  }
  return copied;
}

/** What leaving would lose: the worktree's uncommitted changes (`git status --short`), empty when none. */
export async function uncommittedWork(dir: string): Promise<string> {
  return (await safeGit('status', ['--short'], { cwd: dir })).trim();
}

/**
 * Removes the worktree (its branch stays, with any commits made on it). Refuses when it has
 * uncommitted work, checked here (git's own check would run a status in each submodule).
 */
export async function removeSessionWorktree(worktree: SessionWorktree, beforeRemove?: (dir: string) => Promise<void>): Promise<string> {
  const dirty = await uncommittedWork(worktree.dir);
  if (dirty !== '') throw new Error(`the worktree has uncommitted work, so it was kept:\n${dirty}`);
  // WorktreeRemove hooks are told first (the folder still exists); they cannot stop the removal.
  await beforeRemove?.(worktree.dir);
  await safeGit('worktree', ['remove', '--force', worktree.dir], { cwd: worktree.repo });
  return `Removed the worktree ${worktree.dir}; the branch ${worktree.branch} is kept.`;
}
