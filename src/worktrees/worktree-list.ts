import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { safeGit } from '../util/safe-git.js';
import { uncommittedWork } from './session-worktree.js';

/**
 * `/worktrees` (issue 38 item 1): cairn's worktrees of the repository (under `.cairn/worktrees/`: the
 * session's from `cairn -w`, subagents' from `isolation: worktree`) with their state, and removing one
 * that holds no uncommitted work. The branch always stays, so no commit is lost.
 */
export interface CairnWorktree {
  name: string;
  path: string;
  /** undefined: a detached HEAD. */
  branch?: string;
  /** 'missing': git lists it but its folder is gone (git worktree prune forgets it). */
  state: 'clean' | 'dirty' | 'missing' | 'unreadable';
  /** The uncommitted work (`git status --short`), when dirty. */
  work?: string;
  /** Commits on its branch that the main worktree's HEAD does not have. */
  ahead: number;
  /** The session runs in it. */
  current: boolean;
}

const isCairns = (p: string): boolean => p.split(path.sep).join('/').includes('/.cairn/worktrees/');

/** The repository's worktrees as `git worktree list --porcelain` gives them: path and branch, the main one first. */
async function gitWorktrees(cwd: string): Promise<{ path: string; branch?: string; head?: string }[]> {
  const out = await safeGit('worktree', ['list', '--porcelain', '-z'], { cwd });
  const list: { path: string; branch?: string; head?: string }[] = [];
  for (const field of out.split('\0')) {
    if (field.startsWith('worktree ')) list.push({ path: field.slice('worktree '.length) });
    const last = list.at(-1);
    if (!last) continue;
    if (field.startsWith('branch refs/heads/')) last.branch = field.slice('branch refs/heads/'.length);
    if (field.startsWith('HEAD ')) last.head = field.slice('HEAD '.length);
  }
  return list;
}

/** cairn's worktrees of the repository `cwd` is in; rejects (with git's reason) outside one. */
export async function listCairnWorktrees(cwd: string): Promise<CairnWorktree[]> {
  const all = await gitWorktrees(cwd);
  const mainHead = all[0]?.head;
  const here = await fs.realpath(cwd).catch(() => cwd);
  const result: CairnWorktree[] = [];
  for (const wt of all.slice(1).filter((w) => isCairns(w.path))) {
    const current = here === wt.path || here.startsWith(`${wt.path}${path.sep}`);
    const base = { name: path.basename(wt.path), path: wt.path, ...(wt.branch ? { branch: wt.branch } : {}), current };
    if (!(await fs.stat(wt.path).then((s) => s.isDirectory(), () => false))) {
      result.push({ ...base, state: 'missing', ahead: 0 });
      continue;
    }
    let ahead = 0;
    if (mainHead && wt.head) ahead = (await safeGit('log', ['--format=%H', `${mainHead}..${wt.head}`], { cwd: wt.path }).catch(() => '')).split('\n').filter((l) => l !== '').length;
    try {
      const work = await uncommittedWork(wt.path);
      result.push({ ...base, state: work === '' ? 'clean' : 'dirty', ...(work !== '' ? { work } : {}), ahead });
    } catch {
      result.push({ ...base, state: 'unreadable', ahead });
    }
  }
  return result;
}

/** Removes one of cairn's worktrees by name or path: only when clean and not the session's own; its branch stays. */
export async function removeCairnWorktree(cwd: string, which: string, beforeRemove?: (dir: string) => Promise<void>): Promise<string> {
  const list = await listCairnWorktrees(cwd);
  const wt = list.find((w) => w.name === which || w.path === which || w.branch === which);
  if (!wt) throw new Error(`no worktree of cairn's is called "${which}"${list.length > 0 ? `; there are ${list.map((w) => w.name).join(', ')}` : ''}`);
  if (wt.current) throw new Error(`${wt.name} is the worktree this session works in: leave cairn to remove it (you are asked then)`);
  if (wt.state === 'dirty') throw new Error(`${wt.name} has uncommitted work, so it was kept (commit or discard it first):\n${wt.work ?? ''}`);
  if (wt.state === 'unreadable') throw new Error(`${wt.name}'s state could not be read, so it was kept`);
  // WorktreeRemove hooks are told first (the folder still exists); they cannot stop the removal.
  await beforeRemove?.(wt.path);
  try {
    // cairn checked it is clean; git's own check would run a status in each submodule under their config.
    await safeGit('worktree', wt.state === 'missing' ? ['prune'] : ['remove', '--force', wt.path], { cwd });
  } catch (error) {
    throw new Error(`git could not remove ${wt.path}: ${errorMessage(error)}`, { cause: error });
  }
  const branch = wt.branch ? `; the branch ${wt.branch} is kept${wt.ahead > 0 ? ` with its ${wt.ahead} commit${wt.ahead === 1 ? '' : 's'}` : ''}` : '';
  return `Removed the worktree ${wt.path}${branch}.`;
}

/** What `/worktrees` prints. */
export function worktreeListing(list: readonly CairnWorktree[]): string {
  if (list.length === 0) return 'No worktrees of cairn\'s in this repository (cairn -w NAME makes one for a session; an agent with isolation: worktree makes one per run).';
  const lines = ['Worktrees (under .cairn/worktrees/):'];
  for (const w of list) {
    const state = w.state === 'dirty' ? `dirty (${w.work?.split('\n').length ?? 0} changed)` : w.state;
    const ahead = w.ahead > 0 ? `, ${w.ahead} commit${w.ahead === 1 ? '' : 's'} ahead` : '';
    lines.push(`  ${w.name}${w.current ? ' (this session)' : ''}  branch ${w.branch ?? '(detached)'}  ${state}${ahead}`);
    lines.push(`    ${w.path}`);
  }
  lines.push('Keep: nothing to do. Remove a clean one with /worktrees remove NAME (its branch stays); one with uncommitted work is never removed.');
  return lines.join('\n');
}
