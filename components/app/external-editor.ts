import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { errorMessage } from '../../src/util/error-message.js';
import { RESTORE_TERMINAL } from './terminal-guard.js';
import { ENTER_SCREEN } from './terminal-output.js';

/** How a run of the user's editor ended: it exited 0, or why not (said to the user as is). */
export type EditorOutcome = { ok: true; editor: string } | { ok: false; editor: string; message: string };

/**
 * Hands the terminal to the user's editor on `file` and takes it back once the editor exits.
 * Injected into the command context (`/memory`), and meant for Ctrl+G (edit the prompt) too.
 */
export type RunExternalEditor = (file: string) => Promise<EditorOutcome>;

type Spawn = (command: string, args: readonly string[], options: { stdio: 'inherit'; env: NodeJS.ProcessEnv }) => SpawnSyncReturns<Buffer>;

export interface ExternalEditorOptions {
  /** The terminal's input, the one Ink reads (its raw mode is switched off while the editor runs). */
  stdin: Pick<NodeJS.ReadStream, 'isTTY' | 'isRaw' | 'setRawMode'>;
  /** The terminal itself, past any output capture. */
  screen: Pick<NodeJS.WriteStream, 'write'>;
  /** Draws the whole frame again (the editor left the alternate screen in any state). */
  redraw(): void;
  /** Turns back on what the app set beyond ENTER_SCREEN (mouse reporting, say), before the redraw. */
  restoreModes?(): void;
  env: NodeJS.ProcessEnv;
  /** Tests only. */
  spawn?: Spawn;
}

/** `$VISUAL`, then `$EDITOR`, then `vi`, as git and Claude Code choose. */
export function editorFrom(env: NodeJS.ProcessEnv): string {
  return env['VISUAL']?.trim() || env['EDITOR']?.trim() || 'vi';
}

/**
 * Leaves the full-screen app (alternate screen, mouse and paste reporting, hidden cursor, raw
 * mode), runs the editor with the terminal as its stdin/stdout/stderr, then enters it again and
 * redraws everything.
 *
 * The editor runs with spawnSync on purpose: while it runs, cairn's event loop is stopped, so
 * Ink cannot read a single key meant for the editor (an async spawn leaves Ink's stdin reader
 * competing for the same terminal), and no frame is drawn over the editor's screen. A turn in
 * progress resumes when the editor exits. The editor string goes through `sh -c` as git does, so
 * `code --wait` or `emacs -nw` work; the file is passed as "$1" and never parsed by the shell.
 */
export function createExternalEditor(options: ExternalEditorOptions): RunExternalEditor {
  const spawn: Spawn = options.spawn ?? ((command, args, opts) => spawnSync(command, args, opts));
  return async (file) => {
    const editor = editorFrom(options.env);
    const { stdin, screen } = options;
    const wasRaw = stdin.isTTY === true && stdin.isRaw === true;
    screen.write(RESTORE_TERMINAL);
    if (wasRaw) stdin.setRawMode(false);
    let result: SpawnSyncReturns<Buffer> | undefined;
    let failure: string | undefined;
    const held = holdTerminalSignals();
    try {
      try {
        result = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'cairn-editor', file], { stdio: 'inherit', env: options.env });
      } catch (error) {
        failure = errorMessage(error);
      } finally {
        if (wasRaw) stdin.setRawMode(true);
        screen.write(ENTER_SCREEN);
        options.restoreModes?.();
        options.redraw();
      }
      // A Ctrl+C meant for the editor reached cairn too (same process group). libuv hands it over
      // in the poll phase of the next loop turn; the handlers come back in the check phase after it.
      await nextLoopTurn();
      await nextLoopTurn();
    } finally {
      held.release();
    }
    const message = failure ?? (result ? outcomeProblem(editor, result) : undefined);
    return message === undefined ? { ok: true, editor } : { ok: false, editor, message };
  };
}

const nextLoopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const TERMINAL_SIGNALS = ['SIGINT', 'SIGQUIT'] as const;

/**
 * As git does while an editor runs, Ctrl+C and Ctrl+\\ are the editor's: cairn's handlers (which
 * would end the app) are set aside. A do-nothing handler stays, so the signal is not left to the
 * default action, which would kill cairn.
 */
function holdTerminalSignals(): { release(): void } {
  const ignore = (): void => undefined;
  const saved = TERMINAL_SIGNALS.map((signal) => {
    const listeners = process.listeners(signal);
    process.on(signal, ignore);
    for (const l of listeners) process.off(signal, l);
    return { signal, listeners };
  });
  return {
    release() {
      for (const { signal, listeners } of saved) {
        for (const l of listeners) process.on(signal, l);
        process.off(signal, ignore);
      }
    },
  };
}

/** Why a finished editor run did not succeed, or undefined when it did. */
function outcomeProblem(editor: string, result: SpawnSyncReturns<Buffer>): string | undefined {
  if (result.error) return `could not run ${editor}: ${errorMessage(result.error)}`;
  if (result.signal) return `${editor} was ended by ${result.signal}`;
  // sh's codes for "not found" and "not executable".
  if (result.status === 127) return `${editor} was not found (set $VISUAL or $EDITOR to your editor)`;
  if (result.status === 126) return `${editor} cannot be run (not executable)`;
  if (result.status !== 0) return `${editor} exited with code ${String(result.status)}`;
  return undefined;
}
