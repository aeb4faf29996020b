// The full-screen app changes the terminal (alternate screen, mouse and paste reporting, hidden
// cursor). Whatever ends the process must change it back, or the user's shell is left in a
// screen that scrolls nowhere and types mouse reports. Three ways out are covered:
// - a signal that ends the process (INT, QUIT, TERM, HUP from outside; the TUI reads Ctrl+C as
//   a key): an orderly teardown, which restores the terminal, then the process exits;
// - a second signal while that teardown hangs: restore at once and exit;
// - death that runs no JavaScript (SIGKILL, or a signal the blocked event loop never handled
//   followed by SIGKILL): a small watchdog process restores the terminal when our end of its
//   pipe closes without the word that we restored it ourselves.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeSync } from 'node:fs';
import { LEAVE_SCREEN } from './terminal-output.js';
import { EXIT_SIGNALS, type ExitSignal } from './exit-signals.js';

/**
 * Everything cairn may have left on: synchronized output (a frame cut off mid-write), scroll
 * margins, colours, then the screen modes in reverse order of setting.
 */
export const RESTORE_TERMINAL = `\x1b[?2026l\x1b[r\x1b[m${LEAVE_SCREEN}`;


export interface TerminalGuard {
  /** Call once the terminal is restored: stops the watchdog quietly and removes the handlers. */
  dispose(): void;
}

export interface TerminalGuardOptions {
  /** Starts the orderly teardown with this exit code. */
  finish(code: number): void;
  stdout: NodeJS.WriteStream;
  /** Start the watchdog process (only for the process's own terminal). Default: when stdout is it. */
  watchdog?: boolean;
}

export function guardTerminal(options: TerminalGuardOptions): TerminalGuard {
  const { stdout } = options;
  const ownTerminal = stdout === process.stdout && stdout.isTTY === true && process.platform !== 'win32';
  const watchdog = (options.watchdog ?? ownTerminal) ? startWatchdog() : undefined;
  let signalled = false;
  const handlers = (Object.keys(EXIT_SIGNALS) as ExitSignal[]).map((signal) => {
    const handler = (): void => {
      const code = EXIT_SIGNALS[signal];
      if (!signalled) {
        signalled = true;
        options.finish(code);
        return;
      }
      // The teardown did not end the process: do the one thing that matters, synchronously.
      writeNow(stdout, RESTORE_TERMINAL);
      watchdog?.release();
      process.exit(code);
    };
    process.on(signal, handler);
    return { signal, handler };
  });
  return {
    dispose() {
      for (const { signal, handler } of handlers) process.off(signal, handler);
      watchdog?.release();
    },
  };
}

function writeNow(stdout: NodeJS.WriteStream, text: string): void {
  const fd = (stdout as { fd?: unknown }).fd;
  if (typeof fd === 'number') {
    try {
      writeSync(fd, text);
      return;
    } catch {
      // fall back to the stream
    }
  }
  stdout.write(text);
}

// Runs in its own session (detached), so signals aimed at cairn or at the terminal's foreground
// group do not reach it; it ignores them anyway. Its stdout is the terminal. It waits for a line
// on stdin: "done" means cairn restored the terminal itself; end of input without it means cairn
// died, and the watchdog writes the restore sequence (from the environment, to keep `ps` readable).
const WATCHDOG_SCRIPT = `trap '' INT QUIT TERM HUP TSTP; IFS= read -r line; [ "$line" = done ] || printf '%s' "$CAIRN_TERMINAL_RESTORE"`;

interface Watchdog {
  release(): void;
}

function startWatchdog(): Watchdog | undefined {
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'cairn-terminal-watchdog'], {
      stdio: ['pipe', 'inherit', 'ignore'],
      detached: true,
      env: { ...process.env, CAIRN_TERMINAL_RESTORE: RESTORE_TERMINAL },
    });
  } catch {
    return undefined; // no shell: the signal handlers still cover orderly exits
  }
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  // Neither the process nor its pipe may keep cairn alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // A short write to an empty pipe goes out at once, before any exit that follows.
      child.stdin?.end('done\n');
    },
  };
}
