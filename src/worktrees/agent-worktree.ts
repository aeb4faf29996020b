import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { safeGit } from '../util/safe-git.js';
import { createSessionWorktree, uncommittedWork, type SessionWorktree } from './session-worktree.js';

/**
 * A subagent with `isolation: worktree` (Claude Code's key, issue 38 item 1) works in a new git
 * worktree on a new branch, made as `cairn -w` makes one, from HEAD. When it ends, a worktree with
 * no change (no uncommitted work, no commit) is removed with its branch, as Claude Code does; one with
 * changes is kept, and what changed is summed up for the lead and the card.
 */
export interface AgentWorktree extends SessionWorktree {
  /** The commit it started from (HEAD then). */
  base: string;
  /** The main tree had uncommitted work, which the worktree does not have (it starts from HEAD). */
  mainWasDirty: boolean;
}

export interface FileChange {
  path: string;
  added: number;
  removed: number;
}

export interface WorktreeOutcome {
  branch: string;
  path: string;
  /** false: it changed nothing and was removed with its branch. */
  kept: boolean;
  files: FileChange[];
  added: number;
  removed: number;
  /** Commits on its branch since it started. */
  commits: number;
  /** Why it was kept although it changed nothing (removing it failed), if so. */
  problem?: string;
}

export const ISOLATION_LABEL = 'isolation: worktree';

/** `agent-<type>-<6 hex>`: a name git takes as a branch and cairn as a folder. */
export function agentWorktreeName(agentType: string): string {
  const type = agentType.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'agent';
  return `agent-${type}-${randomBytes(3).toString('hex')}`;
}

/** Makes the agent's worktree in the repository `cwd` is in; rejects with a message naming the cause (not a repository, no git). */
export async function createAgentWorktree(cwd: string, agentType: string): Promise<AgentWorktree> {
  const worktree = await createSessionWorktree(cwd, agentWorktreeName(agentType), ISOLATION_LABEL);
  const base = (await safeGit('rev-parse', ['HEAD'], { cwd: worktree.dir })).trim();
  const mainWasDirty = await uncommittedWork(worktree.repo).then((s) => s !== '', () => false);
  return { ...worktree, base, mainWasDirty };
}

/** What the agent changed since its worktree was made: files against the start (committed or not, new files included) and commits. */
export async function worktreeChanges(worktree: AgentWorktree): Promise<{ files: FileChange[]; commits: number }> {
  const git = { cwd: worktree.dir, maxBuffer: 16 << 20 };
  const files: FileChange[] = [];
  const numstat = await safeGit('diff', ['--numstat', '-z', worktree.base, '--'], git);
  // -z: "added\tremoved\tpath\0", or for a rename "added\tremoved\t\0old\0new\0".
  const fields = numstat.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] ?? '';
    if (entry === '') continue;
    const [added = '0', removed = '0', name = ''] = entry.split('\t');
    const file = name !== '' ? name : `${fields[i + 1] ?? ''} -> ${fields[i + 2] ?? ''}`;
    if (name === '') i += 2;
    files.push({ path: file, added: Number(added) || 0, removed: Number(removed) || 0 });
  }
  const untracked = (await safeGit('ls-files', ['--others', '--exclude-standard', '-z'], git)).split('\0').filter((p) => p !== '');
  for (const rel of untracked) files.push({ path: rel, added: await lineCount(path.join(worktree.dir, rel)), removed: 0 });
  const log = await safeGit('log', ['--format=%H', `${worktree.base}..HEAD`], git);
  return { files: files.sort((a, b) => a.path.localeCompare(b.path)), commits: log.split('\n').filter((l) => l !== '').length };
}

async function lineCount(file: string): Promise<number> {
  try {
    const data = await fs.readFile(file);
    if (data.length === 0) return 0;
    let lines = 0;
    for (const byte of data) if (byte === 10) lines++;
    return data[data.length - 1] === 10 ? lines : lines + 1;
  } catch {
    return 0; // gone, or a folder: counted as a file with no lines
  }
}

/**
 * Sums up the agent's worktree when it has ended, and removes it (and its branch) when it changed
 * nothing. Never removes work: uncommitted changes or commits keep it. `beforeRemove` runs just before a removal.
 */
export async function finishAgentWorktree(worktree: AgentWorktree, beforeRemove?: (dir: string) => Promise<void>): Promise<WorktreeOutcome> {
  const { files, commits } = await worktreeChanges(worktree);
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const outcome: WorktreeOutcome = { branch: worktree.branch, path: worktree.dir, kept: true, files, added, removed, commits };
  if (files.length > 0 || commits > 0) return outcome;
  try {
    // Checked again just before: nothing uncommitted (ignored files aside), nothing committed.
    if ((await uncommittedWork(worktree.dir)) !== '') return outcome;
    // WorktreeRemove hooks are told first (they may archive it); they cannot stop the removal.
    await beforeRemove?.(worktree.dir);
    await safeGit('worktree', ['remove', '--force', worktree.dir], { cwd: worktree.repo });
    await safeGit('branch', ['-D', worktree.branch], { cwd: worktree.repo });
    return { ...outcome, kept: false };
  } catch (error) {
    return { ...outcome, problem: `it could not be removed: ${errorMessage(error)}` };
  }
}

/** The lines the lead reads after the agent's report. */
export function worktreeReport(outcome: WorktreeOutcome, mainWasDirty: boolean): string {
  const lines: string[] = [];
  if (!outcome.kept) {
    lines.push(`The subagent worked in its own git worktree and changed nothing, so the worktree ${outcome.path} and its branch ${outcome.branch} were removed.`);
  } else if (outcome.files.length === 0 && outcome.commits === 0) {
    lines.push(`The subagent worked in the git worktree ${outcome.path} (branch ${outcome.branch}) and changed nothing; the worktree was kept: ${outcome.problem ?? 'unknown reason'}.`);
  } else {
    const commits = outcome.commits > 0 ? `, ${outcome.commits} commit${outcome.commits === 1 ? '' : 's'}` : '';
    lines.push(`The subagent's changes are in the git worktree ${outcome.path} on the branch ${outcome.branch} (kept; not in your working tree): ${diffSummary(outcome)}${commits}.`);
    for (const f of outcome.files.slice(0, 20)) lines.push(`  ${f.path} +${f.added} -${f.removed}`);
    if (outcome.files.length > 20) lines.push(`  ... and ${outcome.files.length - 20} more`);
    lines.push(`Review with git -C ${outcome.path} diff; merge its branch once committed, or remove it from /worktrees.`);
  }
  if (mainWasDirty) lines.push('It started from HEAD: the uncommitted changes in your working tree were not in its worktree.');
  return lines.join('\n');
}

/** `3 files changed, +10 -2`. */
export function diffSummary(outcome: { files: readonly unknown[]; added: number; removed: number }): string {
  const n = outcome.files.length;
  return `${n} file${n === 1 ? '' : 's'} changed, +${outcome.added} -${outcome.removed}`;
}
