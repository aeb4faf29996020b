/**
 * Rows of the screen drawn by the app itself instead of by Ink. The transcript's lines are
 * already rendered, clipped and cached; laying them out through Ink again (tokenising every
 * styled character of every row, each frame) was most of the CPU of a streaming answer. Ink
 * lays out blank rows there and the lines are pasted into its frame before the cell diff.
 */
export interface LineOverlay {
  /** Rows from `top` (0-based, in the frame) show `lines`; the rest of the frame is Ink's. */
  set(top: number, lines: readonly string[]): void;
  clear(): void;
}

export interface OverlayRows {
  top: number;
  lines: readonly string[];
}

export function composeFrame(frame: string, rows: OverlayRows | undefined): string {
  if (!rows) return frame;
  const out = frame.split('\n');
  while (out.length < rows.top) out.push('');
  rows.lines.forEach((line, i) => {
    out[rows.top + i] = line;
  });
  return out.join('\n');
}
