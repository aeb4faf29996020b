import { stripAnsi, textWidth } from '../theme/ansi.js';

/**
 * Marks the prompt's caret cell in Ink's frame: an SGR code terminals ignore (59, default
 * underline colour) placed just before the caret's character. The frame writer finds it and puts
 * the terminal's own cursor there, so an input method's candidate window opens at the caret.
 */
export const CARET_MARK = '\x1b[59m';

/** Row and column (0-based) of the caret mark in a frame, or undefined when no caret is drawn. */
export function findCaret(frame: string): { row: number; col: number } | undefined {
  const at = frame.indexOf(CARET_MARK);
  if (at === -1) return undefined;
  const lineStart = frame.lastIndexOf('\n', at) + 1;
  let row = 0;
  for (let i = frame.indexOf('\n'); i !== -1 && i < at; i = frame.indexOf('\n', i + 1)) row++;
  return { row, col: textWidth(stripAnsi(frame.slice(lineStart, at))) };
}
