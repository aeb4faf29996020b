// The transcript's rows for one frame, outside React: which items are laid out (a window of the
// last TRANSCRIPT_WINDOW, growing as the view reaches the top), the line index (rebuilt only when
// its inputs change), the viewport, and the rows clipped to the width. The screen painter calls
// it at most once per frame; the Transcript component (no frame writer) calls it per render.
import type { ViewMetrics } from '../keys/view-metrics.js';
import { markdownVersion } from '../markdown/render-markdown.js';
import type { TranscriptItem, TuiState } from '../store/types.js';
import { clipLine, paint } from '../theme/ansi.js';
import { themeFor } from '../theme/use-theme.js';
import type { createItemLines } from './item-lines.js';
import { buildLineIndex, visibleLines, type LineIndex } from './line-index.js';
import { liveInView, viewWindow } from './view-top.js';
import { sameInputs, type Inputs } from '../store/last-value.js';

/**
 * Items laid out at once. A resumed 10,000-message session shows its last items in the first
 * frame; older ones are laid out a window at a time when the view reaches the top.
 */
export const TRANSCRIPT_WINDOW = 400;
/**
 * Items laid out for the first frame: enough to fill a tall terminal. A resumed session's first
 * frame would otherwise render 400 items' markdown to show the last screenful; the rest is laid
 * out (TRANSCRIPT_WINDOW at a time) once the view scrolls up to it.
 */
export const FIRST_WINDOW = 60;
export const SPINNER_MS = 100;

export interface PaneFrame {
  /** Exactly `height` rows, each clipped to the width. */
  rows: string[];
  /** A running card is in view: its spinner and timer need a frame every SPINNER_MS. */
  live: boolean;
  /**
   * The view reached the top of what is laid out and the previous window was added: scroll the
   * view down by this many lines (dispatch `scrollShift`) so the same lines stay in view.
   */
  shift?: number;
}

function earlierMarker(count: number): TranscriptItem {
  return { kind: 'notice', id: `earlier:${count}`, level: 'info', message: `⋯ ${count} earlier items above: scroll up to show them` };
}

type IndexKey = Inputs;

export class TranscriptPane {
  private from: number | undefined;
  private shown: { items: TuiState['items']; from: number; list: readonly TranscriptItem[] } | undefined;
  private index: { key: IndexKey; value: LineIndex } | undefined;
  /** Last frame's rows, clipped: rows still in view (moved or not) are not clipped again. */
  private clipped: { width: number; done: Map<string, string> } = { width: 0, done: new Map() };

  constructor(
    private readonly itemLines: ReturnType<typeof createItemLines>,
    private readonly view: ViewMetrics,
    /** Items laid out first (the early frame lays out fewer: only what its one screen shows). */
    private readonly firstWindow = FIRST_WINDOW,
  ) {}

  frame(state: TuiState, width: number, height: number, now: number, tick: number): PaneFrame {
    const items = state.items;
    if (this.from === undefined || this.from > items.length) this.from = Math.max(0, items.length - this.firstWindow);
    // Following the bottom, the window drops what is far above it, so a frame's cost does not grow
    // with the session: every new item used to stay laid out (and re-indexed per frame) until exit.
    if (state.scroll.follow && items.length - this.from > 2 * TRANSCRIPT_WINDOW) this.from = items.length - TRANSCRIPT_WINDOW;
    const from = this.from;
    const theme = themeFor(state.themeName);
    const selectedId = state.focus === 'transcript' ? state.selectedId : undefined;
    const { approvals, approval, scroll } = state;
    // Scrolled off the bottom, a row shows the "more below" marker (see viewWindow).
    const approvalRows = scroll.follow ? height : Math.max(1, height - 1);
    const shown = this.shownItems(items, from);
    // markdownVersion: the markdown engine, or a code block's language, has loaded since (lines drawn plain).
    const key: IndexKey = [shown, width, theme, selectedId, approvals, approval, this.itemLines, approvalRows, markdownVersion()];
    if (!sameInputs(this.index?.key, key)) {
      this.index = { key, value: buildLineIndex({ items: shown, width, theme, selectedId, approvals, approval, itemLines: this.itemLines, approvalRows }) };
    }
    const index = this.index?.value ?? buildLineIndex({ items: shown, width, theme, selectedId, approvals, approval, itemLines: this.itemLines, approvalRows });
    const win = viewWindow(scroll, index, height);
    let shift: number | undefined;
    if (from > 0 && !scroll.follow && win.top === 0) {
      // At the top of what is laid out: lay out the previous window, keeping the same lines in view.
      const next = Math.max(0, from - TRANSCRIPT_WINDOW);
      const nextShown = this.shownItems(items, next);
      shift = buildLineIndex({ items: nextShown, width, theme, selectedId, approvals, approval, itemLines: this.itemLines, approvalRows }).total - index.total;
      this.from = next;
    }
    const lines = visibleLines(index, win.top, win.rows, { now, tick });
    this.view.height = height;
    this.view.total = index.total;
    this.view.index = index;
    const rows = this.clip(lines.slice(0, height), width);
    while (rows.length < height) rows.push('');
    if (win.marker) {
      const marker = win.marker === 'new' ? paint(theme, 'accent', '↓ new output below (End to follow)') : paint(theme, 'muted', '↓ more below (End to follow)');
      rows[height - 1] = clipLine(marker, width);
    }
    return { rows, live: liveInView(index, win.top, win.rows), ...(shift !== undefined ? { shift } : {}) };
  }

  private shownItems(items: TuiState['items'], from: number): readonly TranscriptItem[] {
    const cached = this.shown;
    if (cached && cached.items === items && cached.from === from) return cached.list;
    const list = from > 0 ? [earlierMarker(from), ...items.slice(from)] : items;
    // Only the current window is kept; a look at the next window is not cached.
    if (from === this.from) this.shown = { items, from, list };
    return list;
  }

  private clip(lines: readonly string[], width: number): string[] {
    const prev = this.clipped.width === width ? this.clipped.done : undefined;
    const done = new Map<string, string>();
    const out = lines.map((line) => {
      const clipped = done.get(line) ?? prev?.get(line) ?? clipLine(line, width);
      done.set(line, clipped);
      return clipped;
    });
    this.clipped = { width, done };
    return out;
  }
}
