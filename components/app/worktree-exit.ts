// Leaving a `cairn -w` session (issue 38 item 1): asked on the terminal, after the full-screen app
// has given it back, whether to keep or remove the worktree. Kept unless the answer is "r"/"remove";
// never removed with uncommitted work (which is then listed), and the branch always stays.
import fs from 'node:fs/promises';
import readline from 'node:readline/promises';
import { removeSessionWorktree, uncommittedWork } from '../../src/worktrees/session-worktree.js';
import { isHookWorktree, type HookSessionWorktree, type StartedWorktree } from '../../src/worktrees/session-worktree-start.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { HookRunner } from '../../src/hooks/hook-types.js';
import { hookLine } from '../../src/runtime/hook-wiring.js';
import { worktreeRemoveHooks } from '../../src/worktrees/worktree-hooks.js';
import { stripTerminalControls } from '../../src/util/terminal-text.js';

export const WORKTREE_QUESTION = 'Keep or remove the worktree? [K/r] ';

export async function askAboutWorktree(worktree: StartedWorktree, input: NodeJS.ReadableStream, output: NodeJS.WritableStream, hooks?: HookRunner): Promise<void> {
  if (isHookWorktree(worktree)) return askAboutHookWorktree(worktree, input, output);
  const say = (line: string) => output.write(`${line}\n`);
  let dirty: string;
  try {
    dirty = await uncommittedWork(worktree.dir);
  } catch (error) {
    say(`cairn: kept the worktree ${worktree.dir} (its state could not be read: ${errorMessage(error)})`);
    return;
  }
  if (dirty !== '') {
    say(`cairn: kept the worktree ${worktree.dir} (branch ${worktree.branch}): it has uncommitted work:`);
    say(stripTerminalControls(dirty));
    return;
  }
  say(`cairn: the worktree ${worktree.dir} (branch ${worktree.branch}) has no uncommitted work.`);
  if (!(await answersRemove(input, output))) {
    say(`cairn: kept the worktree ${worktree.dir}; come back with cd ${worktree.dir} && cairn -c`);
    return;
  }
  try {
    say(`cairn: ${await removeSessionWorktree(worktree, (dir) => worktreeRemoveHooks(hooks, dir, (event) => say(`cairn: ${hookLine(event)}`)))}`);
  } catch (error) {
    say(`cairn: ${errorMessage(error)}`);
  }
}

/** Asks the question; true when the answer is "r"/"remove". */
async function answersRemove(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<boolean> {
  // The app left stdin paused and unreferenced: without this, node would exit before an answer comes.
  const stdin = input as NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; ref?: () => unknown };
  stdin.setRawMode?.(false);
  stdin.ref?.();
  stdin.resume();
  const rl = readline.createInterface({ input, output, terminal: false });
  const answer = await rl.question(WORKTREE_QUESTION).catch(() => '');
  rl.close();
  stdin.pause();
  return /^\s*r(emove)?\s*$/i.test(answer);
}

/**
 * A worktree a WorktreeCreate hook made: cairn cannot tell how it was made, so it never deletes it;
 * "remove" runs the WorktreeRemove hooks, which do (as Claude Code's do). Without one, it is kept
 * unasked. A git worktree with uncommitted work is kept as cairn's own are.
 */
async function askAboutHookWorktree(worktree: HookSessionWorktree, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<void> {
  // The hooks of the folder cairn started in (those that made it), not the worktree's own settings.
  const hooks = worktree.hooks;
  const say = (line: string) => output.write(`${line}\n`);
  const made = `made by the WorktreeCreate hook ${worktree.byHook}`;
  const back = `come back with cd ${worktree.dir} && cairn -c`;
  if (!hooks.has('WorktreeRemove')) {
    say(`cairn: kept the worktree ${worktree.dir} (${made}; no WorktreeRemove hook is configured, and cairn does not delete what a hook made); ${back}`);
    return;
  }
  if (worktree.branch !== undefined) {
    const dirty = await uncommittedWork(worktree.dir).catch((error: unknown) => `(its state could not be read: ${errorMessage(error)})`);
    if (dirty !== '') {
      say(`cairn: kept the worktree ${worktree.dir} (${made}, branch ${worktree.branch}): it has uncommitted work:`);
      say(stripTerminalControls(dirty));
      return;
    }
  }
  say(`cairn: the worktree ${worktree.dir} (${made}${worktree.branch !== undefined ? `, branch ${worktree.branch}) has no uncommitted work.` : '); cairn cannot tell what it holds.'} "r" runs the WorktreeRemove hooks.`);
  if (!(await answersRemove(input, output))) {
    say(`cairn: kept the worktree ${worktree.dir}; ${back}`);
    return;
  }
  await worktreeRemoveHooks(hooks, worktree.dir, (event) => say(`cairn: ${hookLine(event)}`));
  const left = await fs.lstat(worktree.dir).then(() => true, () => false);
  say(left ? `cairn: the WorktreeRemove hooks ran; ${worktree.dir} is still there.` : `cairn: the WorktreeRemove hooks removed ${worktree.dir}.`);
}

/**
 * `cairn -p -w`: no one is there to ask, so the worktree is kept (never removed unasked), and
 * stderr says where it is, what uncommitted work it holds, and how to continue or remove it.
 */
export async function tellKeptWorktree(worktree: StartedWorktree, output: NodeJS.WritableStream): Promise<void> {
  const say = (line: string) => output.write(`${line}\n`);
  if (isHookWorktree(worktree)) {
    const dirty = worktree.branch === undefined ? '' : await uncommittedWork(worktree.dir).catch(() => '');
    say(`cairn: kept the worktree ${worktree.dir} (made by the WorktreeCreate hook ${worktree.byHook}${worktree.branch !== undefined ? `, branch ${worktree.branch}` : ''})${dirty !== '' ? ', with uncommitted work:' : ''}`);
    if (dirty !== '') say(stripTerminalControls(dirty));
    say(`cairn: continue with cd ${worktree.dir} && cairn -c`);
    return;
  }
  const next = `continue with cd ${worktree.dir} && cairn -c, or remove it with git worktree remove ${worktree.dir} (the branch stays)`;
  let dirty: string;
  try {
    dirty = await uncommittedWork(worktree.dir);
  } catch (error) {
    say(`cairn: kept the worktree ${worktree.dir} (branch ${worktree.branch}; its state could not be read: ${errorMessage(error)}); ${next}`);
    return;
  }
  if (dirty === '') {
    say(`cairn: kept the worktree ${worktree.dir} (branch ${worktree.branch}), no uncommitted work; ${next}`);
    return;
  }
  say(`cairn: kept the worktree ${worktree.dir} (branch ${worktree.branch}), with uncommitted work:`);
  say(stripTerminalControls(dirty));
  say(`cairn: ${next}`);
}
