import type { ScrollState } from '../store/types.js';
import type { LineIndex } from './line-index.js';

export interface ViewWindow {
  top: number;
  /** Rows for transcript lines (one less than the viewport when the marker shows). */
  rows: number;
  marker: 'new' | 'more' | undefined;
}

/** Where the viewport starts: the bottom when following, else the stored line, kept on any approval. */
export function viewWindow(scroll: ScrollState, index: LineIndex, height: number): ViewWindow {
  const marker = scroll.follow ? undefined : index.total > scroll.seenTotal ? 'new' : 'more';
  const rows = Math.max(1, marker ? height - 1 : height);
  const bottomTop = Math.max(0, index.total - rows);
  let top = scroll.follow ? bottomTop : Math.min(scroll.top, bottomTop);
  const a = index.approval;
  if (a) {
    // The prompt must be visible: its end if it fits, else its start.
    if (a.start + a.count > top + rows) top = Math.max(0, a.start + a.count - rows);
    if (a.start < top) top = a.start;
  }
  return { top, rows, marker: top >= bottomTop && !a ? undefined : marker };
}

export function liveInView(index: LineIndex, top: number, rows: number): boolean {
  if (!index.liveTools) return false;
  return index.blocks.some((b) => b.live && b.start < top + rows && b.start + b.count > top);
}
