// Leaving a `cairn -w` session (issue 38 item 1): asked on the terminal, after the full-screen app
// has given it back, whether to keep or remove the worktree. Kept unless the answer is "r"/"remove";
// never removed with uncommitted work (which is then listed), and the branch always stays.
import readline from 'node:readline/promises';
import { removeSessionWorktree, uncommittedWork, type SessionWorktree } from '../../src/worktrees/session-worktree.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { HookRunner } from '../../src/hooks/hook-types.js';
import { hookLine } from '../../src/runtime/hook-wiring.js';
import { worktreeRemoveHooks } from '../../src/worktrees/worktree-hooks.js';
import { stripTerminalControls } from '../../src/util/terminal-text.js';

export const WORKTREE_QUESTION = 'Keep or remove the worktree? [K/r] ';

export async function askAboutWorktree(worktree: SessionWorktree, input: NodeJS.ReadableStream, output: NodeJS.WritableStream, hooks?: HookRunner): Promise<void> {
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
  // The app left stdin paused and unreferenced: without this, node would exit before an answer comes.
  const stdin = input as NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; ref?: () => unknown };
  stdin.setRawMode?.(false);
  stdin.ref?.();
  stdin.resume();
  const rl = readline.createInterface({ input, output, terminal: false });
  const answer = await rl.question(WORKTREE_QUESTION).catch(() => '');
  rl.close();
  stdin.pause();
  if (!/^\s*r(emove)?\s*$/i.test(answer)) {
    say(`cairn: kept the worktree ${worktree.dir}; come back with cd ${worktree.dir} && cairn -c`);
    return;
  }
  try {
    say(`cairn: ${await removeSessionWorktree(worktree, (dir) => worktreeRemoveHooks(hooks, dir, (event) => say(`cairn: ${hookLine(event)}`)))}`);
  } catch (error) {
    say(`cairn: ${errorMessage(error)}`);
  }
}

/**
 * `cairn -p -w`: no one is there to ask, so the worktree is kept (never removed unasked), and
 * stderr says where it is, what uncommitted work it holds, and how to continue or remove it.
 */
export async function tellKeptWorktree(worktree: SessionWorktree, output: NodeJS.WritableStream): Promise<void> {
  const say = (line: string) => output.write(`${line}\n`);
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
