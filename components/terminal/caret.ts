import { stripAnsi, textWidth } from '../theme/ansi.js';

/**
 * Marks the prompt's caret cell in Ink's frame: an SGR code terminals ignore (59, default
 * underline colour) placed just before the caret's character. The frame writer finds it and puts
 * the terminal's own cursor there, so an input method's candidate window opens at the caret.
 */
export const CARET_MARK = '\x1b[59m';

/** Row and column (0-based) of the caret mark in a frame (text or lines), or undefined when no caret is drawn. */
export function findCaret(frame: string | readonly string[]): { row: number; col: number } | undefined {
  const lines = typeof frame === 'string' ? frame.split('\n') : frame;
  for (let row = 0; row < lines.length; row++) {
    const line = lines[row] ?? '';
    const at = line.indexOf(CARET_MARK);
    if (at !== -1) return { row, col: textWidth(stripAnsi(line.slice(0, at))) };
  }
  return undefined;
}
