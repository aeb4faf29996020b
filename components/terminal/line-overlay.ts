/**
 * Rows of the screen drawn by the app itself instead of by Ink: the transcript, the prompt box
 * and the status row. They change many times a second (a streaming answer, a keystroke, a timer);
 * laying them out through Ink again (tokenising every styled character of every row, each frame)
 * was most of the CPU of a streaming answer and made a key's frame wait behind Ink's throttle.
 * Ink lays out blank rows there; a painter supplies the rows, which are pasted into Ink's frame
 * before the cell diff.
 */
export interface OverlayRows {
  /** First row in the frame (0-based). */
  top: number;
  lines: readonly string[];
}

/**
 * 'show': at the prompt's caret, visible (idle: input methods open there). 'park': at the caret,
 * hidden (output is streaming while the person types: hiding and showing it around every frame
 * would cost more than the text). 'leave': hidden wherever the last write left it (output is
 * streaming and nobody is typing: the next frame starts where this one ended, with no move).
 */
export type CursorMode = 'show' | 'park' | 'leave';

export interface OverlayPainter {
  /** The rows to paste into the frame being drawn: asked once per drawn frame, not per change. */
  rows(): readonly OverlayRows[];
  /** Where the terminal's own cursor goes after a frame (see CursorMode). */
  cursor(): CursorMode;
}

export interface LineOverlay {
  setPainter(painter: OverlayPainter | undefined): void;
  /**
   * What the painter draws changed. `urgent` (a keystroke, a scroll): drawn as soon as the current
   * task is done. Otherwise with the next frame, at most one frame per FRAME_MS.
   */
  invalidate(urgent?: boolean): void;
}

/** Ink's frame lines with the painter's rows pasted in (a new array; `frame` is not changed). */
export function composeLines(frame: readonly string[], regions: readonly OverlayRows[]): string[] {
  const out = frame.slice();
  for (const { top, lines } of regions) {
    while (out.length < top) out.push('');
    for (let i = 0; i < lines.length; i++) out[top + i] = lines[i] ?? '';
  }
  return out;
}
