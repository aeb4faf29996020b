import { spawn } from 'node:child_process';
import type { EventOf } from '../events.js';
import type { Message } from '../messages.js';
import { userText } from '../messages.js';
import { errorMessage } from '../util/error-message.js';

/** What the model gets of a `!` command's output: head and tail past this many characters. */
export const SHELL_MESSAGE_LIMIT = 30_000;
/** What is kept of the output at all (the card and the session file). */
const KEEP_LIMIT = 1_000_000;

export interface UserShellResult {
  output: string;
  exitCode: number | null;
  /** Why it did not run or was cut short (not found, a signal, interrupted). */
  problem?: string;
}

export interface UserShellOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/**
 * Runs a command the user typed after `!` through their own shell ($SHELL, else /bin/sh), in the
 * workspace, with no approval: the user typed it, the model had no part in it. stdout and stderr
 * are read together in the order they came; stdin is closed (the TUI owns the terminal).
 */
export function runUserShell(command: string, options: UserShellOptions): Promise<UserShellResult> {
  const shell = options.env['SHELL']?.trim() || '/bin/sh';
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const finish = (result: UserShellResult): void => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const child = spawn(shell, ['-c', command], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const onAbort = (): void => {
      // The whole group: a pipeline's other processes too.
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      } catch (error) {
        output += `\n(could not stop it: ${errorMessage(error)})`;
      }
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    const take = (chunk: Buffer): void => {
      if (output.length < KEEP_LIMIT) output += chunk.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => finish({ output, exitCode: null, problem: `could not run ${shell}: ${errorMessage(error)}` }));
    child.on('close', (code, signal) => {
      if (options.signal.aborted) return finish({ output, exitCode: code, problem: 'interrupted' });
      finish(signal ? { output, exitCode: code, problem: `ended by ${signal}` } : { output, exitCode: code });
    });
  });
}

/** Head and tail of a long output, with how much was left out between them. */
export function clipOutput(output: string, limit = SHELL_MESSAGE_LIMIT): string {
  if (output.length <= limit) return output;
  const half = Math.floor(limit / 2);
  return `${output.slice(0, half)}\n… ${output.length - 2 * half} characters left out …\n${output.slice(-half)}`;
}

/**
 * A `!` command as the transcript sees it: a running card at once, then the finished command's event (output,
 * exit code, time taken), which the caller emits and adds to the history.
 */
export async function shellCommandTurn(
  command: string,
  options: UserShellOptions & { now: () => number; emit: (event: EventOf<'shell_command'>) => void },
): Promise<EventOf<'shell_command'>> {
  const id = `shell_${options.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const started = options.now();
  options.emit({ type: 'shell_command', id, command, status: 'running' });
  const result = await runUserShell(command, options);
  return {
    type: 'shell_command',
    id,
    command,
    status: 'done',
    output: result.output,
    exit_code: result.exitCode,
    duration_ms: options.now() - started,
    ...(result.problem ? { problem: result.problem } : {}),
  };
}

/**
 * The user message a finished `!` command becomes, so the model sees it with the next prompt
 * (and a resumed session rebuilds it from the recorded event).
 */
export function shellCommandMessage(event: EventOf<'shell_command'>): Message {
  const status = event.problem ? ` ${event.problem}` : '';
  const code = event.exit_code === undefined || event.exit_code === null ? '' : ` exit_code="${event.exit_code}"`;
  return userText(
    [
      'The user ran a shell command themselves (a `!` prompt); its output is below. Use it as context; it needs no reply of its own.',
      `<bash-input>${event.command}</bash-input>`,
      `<bash-output${code}${status ? ` note="${status.trim()}"` : ''}>${clipOutput(event.output ?? '')}</bash-output>`,
    ].join('\n'),
  );
}
