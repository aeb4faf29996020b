// The page's worktrees panel and its `/worktrees` (issue 38 item 1, "works from the page too"): the
// engine functions of the terminal's /worktrees (src/worktrees/worktree-list.ts, safe git only), with
// the checks a server adds: a name is one of cairn's worktrees by its exact name (never a path), and
// a worktree another session on this server works in is not removed under it.
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { listCairnWorktrees, removeCairnWorktree, type CairnWorktree } from '../worktrees/worktree-list.js';
import { worktreeRemoveHooks } from '../worktrees/worktree-hooks.js';
import { HttpError } from './http-error.js';
import type { SessionHub } from './session-hub.js';

/** A worktree's name as cairn makes them (session-worktree.ts): one folder name, never a path or `..`. */
function isWorktreeName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) && !name.includes('..');
}

export interface ServedWorktree extends CairnWorktree {
  /** Another session open on this server works in it. */
  inUse?: string;
  /** Whether the page offers Remove; when not, `kept` says why. */
  removable: boolean;
  kept?: string;
}

const inside = (dir: string, root: string): boolean => dir === root || dir.startsWith(`${root}${path.sep}`);

/** Why a worktree stays (the same words as the terminal's refusals), or undefined when it may go. */
function keptBecause(w: CairnWorktree, inUse: string | undefined): string | undefined {
  if (w.current) return `${w.name} is the worktree this session works in: leave the session to remove it`;
  if (inUse) return `${w.name} is the workspace of session ${inUse}, open on this server: close it first`;
  if (w.state === 'dirty') return `${w.name} has uncommitted work, so it is kept (commit or discard it first)`;
  if (w.state === 'unreadable') return `${w.name}'s state could not be read, so it is kept`;
  return undefined;
}

/** The worktrees of the repository session `id` works in, with what the page may do with each. */
export async function listServedWorktrees(hub: SessionHub, id: string): Promise<ServedWorktree[]> {
  const s = hub.get(id);
  let list: CairnWorktree[];
  try {
    list = await listCairnWorktrees(s.cwd);
  } catch (error) {
    throw new HttpError(409, `worktrees: ${s.cwd} is not in a git repository cairn can read (${errorMessage(error).split('\n')[0] ?? ''})`);
  }
  const others = hub.live().filter((o) => o.id !== id);
  return list.map((w) => {
    const inUse = others.find((o) => inside(o.cwd, w.path))?.id;
    const kept = keptBecause(w, inUse);
    return { ...w, ...(inUse ? { inUse } : {}), removable: kept === undefined, ...(kept ? { kept } : {}) };
  });
}

/** Removes the clean worktree called `name` (its branch stays); a 400 for a name that is not one, a 409 naming why one is kept. */
export async function removeServedWorktree(hub: SessionHub, id: string, name: string): Promise<string> {
  if (!isWorktreeName(name)) throw new HttpError(400, `worktrees: "${name.slice(0, 80)}" is not a worktree name (letters, digits, . _ -, not starting with . or -; never a path)`);
  const list = await listServedWorktrees(hub, id);
  const wt = list.find((w) => w.name === name);
  if (!wt) throw new HttpError(404, `worktrees: no worktree of cairn's is called "${name}"${list.length > 0 ? `; there are ${list.map((w) => w.name).join(', ')}` : ''}`);
  if (!wt.removable) throw new HttpError(409, `worktrees: ${wt.kept ?? `${name} is kept`}${wt.work ? `:\n${wt.work}` : ''}`);
  const { cwd, runtime } = hub.get(id);
  const session = runtime.session;
  let done: string;
  try {
    // By its path, which names exactly this one (a name could also be another's branch); the engine checks it is clean again.
    done = await removeCairnWorktree(cwd, wt.path, (dir) => worktreeRemoveHooks(runtime.hooks?.runner, dir, (event) => session.emit(event)));
  } catch (error) {
    throw new HttpError(409, `worktrees: ${errorMessage(error)}`);
  }
  // In the session, so every tab (and the session file) has it, as the page's commands' output.
  session.emit({ type: 'notice', level: 'info', message: done });
  return done;
}
