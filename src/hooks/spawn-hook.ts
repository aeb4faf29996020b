// Runs one hook command: `sh -c` in its own process group, the input JSON on stdin, with a timeout
// that kills the whole group (a hook's children die with it). Hooks run outside the bash tool's
// sandbox, as in Claude Code: they are the user's own commands, not the model's.
import { spawn } from 'node:child_process';
import type { HookProcessResult } from './hook-types.js';
import { timerDelay } from '../util/timer-limit.js';

/** Output beyond this is dropped (a hook that floods stdout must not fill memory). */
const MAX_OUTPUT_CHARS = 1_000_000;
/** After the shell exits, how long to wait for pipes a backgrounded child may hold open. */
const CLOSE_GRACE_MS = 200;

export interface SpawnHookOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    // ESRCH: the group is already gone, which is what we wanted.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Never rejects: a command that cannot start is a result with spawnError. */
export function spawnHook(opts: SpawnHookOptions): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    let exitCode: number | null = null;
    const child = spawn(opts.command, { shell: true, cwd: opts.cwd, env: opts.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const finish = (extra: Partial<HookProcessResult> = {}): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ exitCode, stdout, stderr, timedOut, ...extra });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
      finish({ exitCode: null });
    }, timerDelay(opts.timeoutMs));
    const onAbort = (): void => {
      killGroup(child.pid);
      finish({ exitCode: null });
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += chunk;
    });
    child.on('error', (error) => finish({ spawnError: error.message }));
    child.on('exit', (code) => {
      exitCode = code;
      setTimeout(() => finish(), CLOSE_GRACE_MS).unref();
    });
    child.on('close', () => finish());
    // A hook that never reads stdin closes the pipe early: that is not the hook's failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.stdin);
  });
}
