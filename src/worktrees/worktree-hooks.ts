// Claude Code's WorktreeCreate and WorktreeRemove hooks. A WorktreeCreate hook REPLACES git's worktree
// creation: it makes the worktree itself (any version control, any place) and prints its absolute
// path; any failure (non-zero exit, no path, a path that is not an existing directory) fails the
// creation, as documented: there is no fall back to git. The path is untrusted input, checked by
// hook-worktree-path.ts (an existing directory that is a worktree of its own). WorktreeRemove is told (with `worktree_path`) when a
// worktree is about to be removed; it cannot block the removal.
import type { AgentEvent } from '../events.js';
import { hookEvents } from '../hooks/hook-events.js';
import type { HookRunner } from '../hooks/hook-types.js';
import { checkHookWorktreePath } from './hook-worktree-path.js';

type Emit = (event: AgentEvent) => void;

/**
 * Runs the WorktreeCreate hooks when there are any: the directory the hook made (real path), or an
 * error naming the hook. Undefined when no hook is configured (cairn makes a git worktree).
 */
export async function createWorktreeByHook(hooks: HookRunner | undefined, name: string, emit: Emit, workspace: string, signal?: AbortSignal): Promise<{ dir: string; hook: string } | { error: string } | undefined> {
  if (!hooks?.has('WorktreeCreate')) return undefined;
  const run = await hooks.run({ event: 'WorktreeCreate', worktreeName: name }, signal);
  for (const event of hookEvents(run)) emit(event);
  const failed = run.outcomes.find((o) => o.error !== undefined);
  if (failed) return { error: `the WorktreeCreate hook (${failed.hook.source}, ${failed.hook.key}) failed: ${failed.error ?? ''}` };
  const made = run.outcomes.find((o) => o.worktreePath !== undefined);
  if (!made?.worktreePath) return { error: 'the WorktreeCreate hooks printed no worktree path' };
  const checked = await checkHookWorktreePath(made.worktreePath, `the WorktreeCreate hook (${made.hook.source}, ${made.hook.key})`, workspace);
  return 'error' in checked ? checked : { dir: checked.dir, hook: `${made.hook.source} ${made.hook.key}` };
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
