// The "trust this folder?" question, asked on the terminal before the full-screen app starts (as
// Claude Code's trust dialog is): only when the folder's own settings would widen something, and
// once, since a yes is remembered. Anything but "y"/"yes" is a no: nothing is widened this session.
//
// A yes must be an answer someone meant. The question reads the terminal key by key (raw mode) and
// takes no key until it has been on screen for the approvals' guard (keys/answer-guard.ts): what
// was typed ahead, sat buffered when it appeared, or was stuffed into the terminal is dropped, the
// answer line appears once keys count, and it says when it dropped some.
import { StringDecoder } from 'node:string_decoder';
import { systemClock, type Clock, type TimerHandle } from '../../src/clock.js';
import type { AskTrust, TrustQuestion } from '../../src/runtime/workspace-settings.js';
import { stripTerminalControls } from '../../src/util/terminal-text.js';
import { createAnswerGuard } from '../keys/answer-guard.js';

export const TRUST_PROMPT = 'Trust this folder? [y/N] ';
export const IGNORED_KEYS_NOTICE = 'Keys typed before this question could be read were ignored.';

/** The question up to (not including) its answer line, which waits for the guard. */
export function trustQuestionText(q: TrustQuestion): string {
  // File names and keys come from disk: shown, never obeyed.
  const lines = q.wouldApply.map((line) => `  ${stripTerminalControls(line)}`);
  return [
    '',
    `Do you trust the files in ${stripTerminalControls(q.folder)}?`,
    '',
    'Its settings files would let cairn do more than it does by default:',
    ...lines,
    '',
    'A repository you did not write could use these to run commands without asking. Its deny and ask',
    'rules apply either way. Trusting the folder applies the rest now and in later sessions.',
    '',
    '',
  ].join('\n');
}

export interface TrustTerminal {
  input: NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown };
  output: NodeJS.WritableStream;
  clock?: Clock;
  /** Ctrl+C: what it does in a shell (the default raises SIGINT, which ends cairn as before). */
  interrupt?: () => void;
}

// One key per match: an escape sequence (arrows, function keys), or one character.
const KEYS = /\x1b\[[0-?]*[ -/]*[@-~]|\x1bO.|\x1b.?|[\s\S]/gu;

export function askTrustOnTerminal(io: TrustTerminal = { input: process.stdin, output: process.stdout }): AskTrust {
  return async (question) => {
    const answer = await askLineOnTerminal(io, trustQuestionText(question), TRUST_PROMPT);
    return answer !== undefined && /^\s*y(es)?\s*$/i.test(answer);
  };
}

/**
 * The same question once refused is not asked again in this run (`cairn -w` may ask about the
 * folder it starts in, then the session about the worktree in it): the answer stays no.
 */
export function refuseOnceRefused(ask: AskTrust): AskTrust {
  let refused = false;
  return async (question) => {
    if (refused) return false;
    const yes = await ask(question);
    if (!yes) refused = true;
    return yes;
  };
}

/**
 * Writes `text`, then (once the answer guard lets keys count) `prompt`, and reads one line typed
 * after it. Resolves to the line, or undefined on Ctrl+D, end of input or Ctrl+C (which then
 * interrupts as it does in a shell). Start-up questions (trust, MCP servers) all read this way.
 */
export function askLineOnTerminal(io: TrustTerminal, text: string, prompt: string): Promise<string | undefined> {
  const clock = io.clock ?? systemClock;
  const interrupt = io.interrupt ?? (() => process.kill(process.pid, 'SIGINT'));
  return new Promise<string | undefined>((resolve) => {
    const { input, output } = io;
    const decoder = new StringDecoder('utf8');
    let armed = false;
    let ignored = false;
    let answer = '';
    let timer: TimerHandle | undefined;

    output.write(text);
    input.setRawMode?.(true);
    const guard = createAnswerGuard(() => clock.now());

    const arm = (): void => {
      timer = undefined;
      if (!guard.ready()) return schedule();
      armed = true;
      output.write(`${ignored ? `${IGNORED_KEYS_NOTICE}\n` : ''}${prompt}`);
    };
    const schedule = (): void => {
      if (timer === undefined) timer = clock.setTimeout(arm, guard.msUntilReady());
    };
    const finish = (line: string | undefined): void => {
      if (timer !== undefined) clock.clearTimeout(timer);
      input.off('data', onData);
      input.off('end', onEnd);
      input.setRawMode?.(false);
      input.pause();
      resolve(line);
    };
    const onEnd = (): void => {
      if (armed) output.write('\n');
      finish(undefined);
    };
    const onData = (chunk: Buffer | string): void => {
      const keys = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      for (const [key] of keys.matchAll(KEYS)) {
        if (key === '\x03') {
          output.write('\n');
          finish(undefined);
          interrupt();
          return;
        }
        if (!armed) {
          // Too soon, or typing is still going on: not an answer, and it pushes the answer back.
          ignored = true;
          guard.noteTyping();
          continue;
        }
        if (key === '\r' || key === '\n' || key === '\x04') {
          output.write('\n');
          // Ctrl+D is no answer, as end of input is.
          finish(key === '\x04' ? undefined : answer);
          return;
        }
        if (key === '\x7f' || key === '\b') {
          if (answer === '') continue;
          answer = [...answer].slice(0, -1).join('');
          output.write('\b \b');
        } else if (!/[\x00-\x1f\x7f]/u.test(key)) {
          answer += key;
          output.write(key);
        }
      }
    };
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
    schedule();
  });
}
