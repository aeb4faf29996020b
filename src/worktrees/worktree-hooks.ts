// Claude Code's WorktreeCreate and WorktreeRemove hooks. A WorktreeCreate hook REPLACES git's worktree
// creation: it makes the worktree itself (any version control, any place) and prints its absolute
// path; any failure (non-zero exit, no path, a path that is not an existing directory) fails the
// creation, as documented: there is no fall back to git. The path is untrusted input: it must be
// absolute and name an existing directory. WorktreeRemove is told (with `worktree_path`) when a
// worktree is about to be removed; it cannot block the removal.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AgentEvent } from '../events.js';
import { hookEvents } from '../hooks/hook-events.js';
import type { HookRunner } from '../hooks/hook-types.js';
import { errorMessage } from '../util/error-message.js';

type Emit = (event: AgentEvent) => void;

/**
 * Runs the WorktreeCreate hooks when there are any: the directory the hook made (real path), or an
 * error naming the hook. Undefined when no hook is configured (cairn makes a git worktree).
 */
export async function createWorktreeByHook(hooks: HookRunner | undefined, name: string, emit: Emit, signal?: AbortSignal): Promise<{ dir: string; hook: string } | { error: string } | undefined> {
  if (!hooks?.has('WorktreeCreate')) return undefined;
  const run = await hooks.run({ event: 'WorktreeCreate', worktreeName: name }, signal);
  for (const event of hookEvents(run)) emit(event);
  const failed = run.outcomes.find((o) => o.error !== undefined);
  if (failed) return { error: `the WorktreeCreate hook (${failed.hook.source}, ${failed.hook.key}) failed: ${failed.error ?? ''}` };
  const made = run.outcomes.find((o) => o.worktreePath !== undefined);
  if (!made?.worktreePath) return { error: 'the WorktreeCreate hooks printed no worktree path' };
  const where = `the WorktreeCreate hook (${made.hook.source}, ${made.hook.key})`;
  const printed = made.worktreePath;
  if (!path.isAbsolute(printed)) return { error: `${where} printed ${JSON.stringify(printed)}, which is not an absolute path` };
  try {
    const stat = await fs.stat(printed);
    if (!stat.isDirectory()) return { error: `${where} printed ${printed}, which is not a directory` };
    return { dir: await fs.realpath(printed), hook: `${made.hook.source} ${made.hook.key}` };
  } catch (error) {
    return { error: `${where} printed ${printed}, which does not exist (${errorMessage(error)})` };
  }
}

/** Tells the WorktreeRemove hooks that `dir` is being removed; they cannot stop it. */
export async function worktreeRemoveHooks(hooks: HookRunner | undefined, dir: string, emit: Emit, signal?: AbortSignal): Promise<void> {
  if (!hooks?.has('WorktreeRemove')) return;
  const run = await hooks.run({ event: 'WorktreeRemove', worktreePath: dir }, signal);
  for (const event of hookEvents(run)) emit(event);
}

/** A subagent's worktree a WorktreeCreate hook made (not a git worktree cairn knows the branch of). */
export interface HookWorktree {
  dir: string;
  /** The hook that made it: its file and key. */
  byHook: string;
}
