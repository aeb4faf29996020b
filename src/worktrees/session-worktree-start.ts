// `cairn -w NAME` with Claude Code's WorktreeCreate hook: when one is in force for the folder cairn
// was started in, it replaces git's creation (as `claude -w` does) and the session works in the
// folder it printed, checked as a subagent's is (hook-worktree-path.ts). The hook runs in the same
// trust rules as every hook: a project's (its settings files, .hooks.json, the plugins it enables)
// only once the folder is trusted. In the app the trust question comes first when the answer
// decides whether such a hook runs; under -p no one is asked, so the project's hook waits (a line
// says so) and git makes the worktree, as without a hook. No hook in force: git, as before.
import fs from 'node:fs/promises';
import { loadHooks } from '../hooks/hook-set.js';
import { createHookRunner } from '../hooks/hook-runner.js';
import type { HookDefinition, HookRunner } from '../hooks/hook-types.js';
import { hookLine } from '../runtime/hook-wiring.js';
import { settleWorkspaceTrust, type AskTrust } from '../runtime/workspace-settings.js';
import { workspaceTrust } from '../settings/workspace-trust.js';
import { safeGit } from '../util/safe-git.js';
import { checkWorktreeName, createSessionWorktree, type SessionWorktree } from './session-worktree.js';
import { createWorktreeByHook } from './worktree-hooks.js';

/** A `cairn -w` worktree a WorktreeCreate hook made: cairn never deletes it itself (WorktreeRemove hooks do). */
export interface HookSessionWorktree {
  name: string;
  dir: string;
  /** The hook that made it: its file and key. */
  byHook: string;
  /** Its git branch, when it is a git worktree. */
  branch?: string;
  /** The hooks of the folder cairn was started in, which made it: its WorktreeRemove hooks remove it. */
  hooks: HookRunner;
}

export type StartedWorktree = SessionWorktree | HookSessionWorktree;

export const isHookWorktree = (w: StartedWorktree): w is HookSessionWorktree => 'byHook' in w;

export interface WorktreeStartOptions {
  /** The folder cairn was started in. */
  cwd: string;
  name: string;
  env: NodeJS.ProcessEnv;
  cairnHome: string;
  claudeHome: string;
  /** The app's trust question; absent (-p): never asked. */
  askTrust?: AskTrust;
  /** --session-id, when given (otherwise the session does not exist yet: the hook gets ""). */
  sessionId?: string;
  /** One line for the user (what the hooks said, what waits for trust). */
  say: (line: string) => void;
}

const key = (h: HookDefinition): string => `${h.source}\0${h.key}`;

/** The WorktreeCreate hooks in force for the folder, asking about trust first when that decides whether a project's may run. */
async function creatorHooks(opts: WorktreeStartOptions, cwd: string): Promise<readonly HookDefinition[]> {
  const at = { workspace: cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome, env: opts.env };
  let trusted = (await workspaceTrust(at)).trusted;
  const loaded = await loadHooks({ ...at, trusted: () => trusted });
  if (trusted) return loaded.hooks;
  const inForce = new Set(loaded.hooks.map(key));
  const withheld = (await loadHooks({ ...at, trusted: () => true })).hooks.filter((h) => h.event === 'WorktreeCreate' && !inForce.has(key(h)));
  if (withheld.length === 0) return loaded.hooks;
  // The session settles trust again for its own folder and tells what it withheld; these notices would repeat it.
  if (opts.askTrust) trusted = await settleWorkspaceTrust({ cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome, askTrust: opts.askTrust, notices: [] });
  if (trusted) return (await loadHooks({ ...at, trusted: () => true })).hooks;
  const files = [...new Set(withheld.map((h) => h.source))].join(', ');
  opts.say(`the WorktreeCreate hook in ${files} waits until you trust this folder (${opts.askTrust ? 'you did not' : 'start cairn here without -p once to answer'}); git makes the worktree`);
  return loaded.hooks;
}

/**
 * Makes the session's worktree: by the WorktreeCreate hook when one is in force, else with git.
 * Rejects with a message naming the cause (the hook and what it printed, or git's problem); then
 * nothing runs in any folder the hook printed.
 */
export async function startSessionWorktree(opts: WorktreeStartOptions): Promise<StartedWorktree> {
  const cwd = await fs.realpath(opts.cwd);
  checkWorktreeName(opts.name, '--worktree');
  const hooks = await creatorHooks(opts, cwd);
  const runner = createHookRunner({ hooks: () => hooks, cwd, env: opts.env, sessionId: opts.sessionId ?? '' });
  const made = await createWorktreeByHook(runner, opts.name, (event) => opts.say(hookLine(event)), cwd);
  if (made === undefined) return createSessionWorktree(cwd, opts.name);
  if ('error' in made) throw new Error(`--worktree: ${made.error}. No session was started.`);
  const branch = await safeGit('rev-parse', ['--abbrev-ref', 'HEAD'], { cwd: made.dir }).then((out) => out.trim(), () => 'HEAD');
  return { name: opts.name, dir: made.dir, byHook: made.hook, hooks: runner, ...(branch !== 'HEAD' && branch !== '' ? { branch } : {}) };
}
