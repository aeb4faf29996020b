// Job control for the full-screen app. Ctrl+Z is a key in raw mode, but SIGTSTP or SIGSTOP sent
// from outside (kill -TSTP, a shell's `kill -STOP %1`) stops the process with the terminal still
// set up for the app; the shell then puts the tty back to cooked mode, and `fg` resumed an app
// that took no input. Here:
// - SIGTSTP: the terminal is put back as the shell expects it (normal screen, modes off, cooked),
//   then the process stops itself;
// - SIGCONT (after SIGTSTP, or after a SIGSTOP that ran no code of ours): raw mode, the app's
//   screen modes and a full redraw again.
import { RESTORE_TERMINAL } from './terminal-guard.js';
import { ENTER_SCREEN } from './terminal-output.js';

export interface JobControlOptions {
  /** The terminal's input, the one Ink reads. */
  stdin: Pick<NodeJS.ReadStream, 'isTTY' | 'setRawMode'>;
  /** The terminal itself, past any output capture. */
  screen: Pick<NodeJS.WriteStream, 'write'>;
  /** Turns back on what the app set beyond ENTER_SCREEN (mouse reporting), before the redraw. */
  restoreModes(): void;
  /** Draws the whole frame again. */
  redraw(): void;
  /** Stops this process (tests pass their own). Default: SIGSTOP to itself. */
  stop?: () => void;
  /** The process whose signals are handled (tests pass an emitter). Default: process. */
  signals?: Pick<NodeJS.Process, 'on' | 'off'>;
}

/** Handles SIGTSTP and SIGCONT until the returned function is called. */
export function handleJobControl(options: JobControlOptions): () => void {
  const { stdin, screen } = options;
  const signals = options.signals ?? process;
  const stop = options.stop ?? (() => process.kill(process.pid, 'SIGSTOP'));
  const tty = stdin.isTTY === true;
  const onStop = (): void => {
    screen.write(RESTORE_TERMINAL);
    if (tty) stdin.setRawMode(false);
    stop();
  };
  const onContinue = (): void => {
    // libuv skips a mode change to the mode it believes is set: after a SIGSTOP the shell made the
    // tty cooked behind its back, so the mode is switched off and on again.
    if (tty) {
      stdin.setRawMode(false);
      stdin.setRawMode(true);
    }
    screen.write(ENTER_SCREEN);
    options.restoreModes();
    options.redraw();
  };
  signals.on('SIGTSTP', onStop);
  signals.on('SIGCONT', onContinue);
  return () => {
    signals.off('SIGTSTP', onStop);
    signals.off('SIGCONT', onContinue);
  };
}
