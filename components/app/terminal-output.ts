import { createInkTerminal, type InkTerminal } from '../terminal/ink-terminal.js';
import type { LineOverlay } from '../terminal/line-overlay.js';

export interface TerminalOutput {
  /** The stream Ink renders into. */
  stdout: NodeJS.WriteStream;
  /** Redraw everything (after something else wrote to the screen). */
  redraw(): void;
  /** Present when the cell-diff writer is in use: the transcript draws its rows through it. */
  overlay?: LineOverlay;
  dispose(): void;
}

/**
 * Ink renders into a frame capture; the cell-diff writer sends only what changed to the real
 * terminal. `CAIRN_FRAME_WRITER=0` hands Ink the real terminal instead (for side-by-side benchmarks
 * and as an escape hatch).
 */
export function createTerminalOutput(realStdout: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env, initialFrame?: string): TerminalOutput {
  if (env['CAIRN_FRAME_WRITER'] === '0' || !realStdout.isTTY) {
    return { stdout: realStdout, redraw: () => {}, dispose: () => {} };
  }
  const term: InkTerminal = createInkTerminal(realStdout, initialFrame !== undefined ? { initialFrame } : {});
  return {
    stdout: term.stdout as unknown as NodeJS.WriteStream,
    redraw: () => term.redraw(),
    overlay: term.overlay,
    dispose: () => term.dispose(),
  };
}

// Alternate screen, hidden cursor, bracketed paste. Mouse reports are off unless the user turns
// them on (MOUSE_ON): while the app takes the mouse, the terminal's own selection needs Shift.
// Focus reporting (1004: ESC [ I in, ESC [ O out) tells whether a notification is needed.
export const ENTER_SCREEN = '\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[?1004h\x1b[2J\x1b[H';
/** Wheel (and click) reports, SGR encoding: the wheel scrolls the transcript. */
export const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';
export const MOUSE_OFF = '\x1b[?1006l\x1b[?1000l';
// The same modes off, in reverse order; the main screen comes back as the user left it.
export const LEAVE_SCREEN = '\x1b[?1004l\x1b[?1006l\x1b[?1000l\x1b[?2004l\x1b[?25h\x1b[?1049l';
