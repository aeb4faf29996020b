// Writes whole frames to a terminal as cell diffs against what is already on screen,
// letting the terminal scroll a region itself when content moved by whole lines.
import { BLANK_ROW, cellsEqual, emptyParseCache, parseFrame, type Row } from './cell-grid.js';
import { itemAt } from '../../src/util/invariant.js';
import { Emitter, diffScreen, type TermState } from './screen-diff.js';
import { DEFAULT_STYLE } from './sgr.js';

export const SYNC_BEGIN = '\x1b[?2026h';
export const SYNC_END = '\x1b[?2026l';
/**
 * Updates shorter than this go out bare: a few characters arrive in one read and cannot tear,
 * while the 16 bytes of markers would be most of a streaming frame's cost.
 */
export const SYNC_MIN_BYTES = 96;

export interface FrameWriterOptions {
  out: { write(s: string): unknown };
  columns: number;
  rows: number;
  /** Detect line shifts and use scroll regions (default true). */
  scroll?: boolean;
}

export interface FrameWriter {
  /**
   * Shows `frame` (lines joined by '\n', or the lines themselves; SGR styles allowed); writes
   * nothing when nothing changed.
   */
  writeFrame(frame: string | readonly string[]): void;
  /** The terminal was resized: the next frame is drawn from a cleared screen. */
  resize(columns: number, rows: number): void;
  /** Forget what is on screen (e.g. something else wrote to it): the next frame is a full redraw. */
  invalidate(): void;
  /**
   * `frame` is already on screen (drawn before this writer existed, with the cursor shown): the
   * next frame is a diff against it, not a redraw from a cleared screen.
   */
  assume(frame: string): void;
  /**
   * The terminal's own cursor at this cell (input methods open there), shown or only parked there
   * hidden (`visible` false); hidden when `at` is undefined.
   */
  showCursorAt(at: { row: number; col: number } | undefined, visible?: boolean): void;
  readonly columns: number;
  readonly rows: number;
}

export interface ScrollShift {
  top: number;
  bottom: number;
  /** Lines moved: > 0 content moves up (SU), < 0 content moves down (SD). */
  by: number;
}

function sameFrame(a: string | readonly string[], b: string | readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (typeof a === 'string' || typeof b === 'string' || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `next` starts with all of `prev`'s (non-blank) cells. */
function grewFrom(prev: Row, next: Row): boolean {
  const n = prev.cells.length;
  if (n === 0 || n > next.cells.length) return false;
  for (let x = 0; x < n; x++) if (!cellsEqual(itemAt(prev.cells, x, 'cell'), itemAt(next.cells, x, 'cell'))) return false;
  return true;
}

/** Best whole-line shift of `prev` that reproduces rows of `next`, if any would save rewriting. */
export function findScroll(prev: readonly Row[], next: readonly Row[]): ScrollShift | undefined {
  const rows = next.length;
  // One changed line (a streaming frame that did not scroll) is never cheaper to scroll: a shift
  // would move lines that are already in place and then rewrite them.
  let changed = 0;
  for (let i = 0; i < rows && changed < 2; i++) if (next[i]?.key !== prev[i]?.key) changed++;
  if (changed < 2) return undefined;
  let best: ScrollShift | undefined;
  let bestGain = 0;
  for (let k = 1; k < rows; k++) {
    for (const dir of [1, -1]) {
      // Runs of i where next[i] equals prev[i + dir * k]; gain counts non-blank lines not already in place.
      // Blank rows may sit inside a run (the blank line between paragraphs) but earn nothing.
      let runStart = -1;
      let gain = 0;
      for (let i = 0; i <= rows; i++) {
        const j = i + dir * k;
        const row = next[i];
        const from = j >= 0 && j < rows ? prev[j] : undefined;
        const hit = row !== undefined && row.key === from?.key;
        if (hit) {
          if (runStart < 0) {
            runStart = i;
            gain = 0;
          }
          if (row.cells.length > 0 && row.key !== prev[i]?.key) gain++;
          continue;
        }
        // A run may end with a row that only grew (the line being streamed): scrolled along with
        // the rest, only its new cells are written, instead of the whole line at its new place.
        let last = i - 1;
        if (runStart >= 0 && row !== undefined && from !== undefined && grewFrom(from, row)) {
          last = i;
          if (row.key !== prev[i]?.key) gain++;
        }
        if (runStart >= 0 && gain > bestGain) {
          bestGain = gain;
          best = dir > 0
            ? { top: runStart, bottom: last + k, by: k }
            : { top: runStart - k, bottom: last, by: -k };
        }
        runStart = -1;
      }
    }
  }
  return best;
}

/** Screen content after the terminal scrolls region [top, bottom] by `by` lines. */
export function applyScroll(screen: readonly Row[], { top, bottom, by }: ScrollShift): Row[] {
  const out = screen.slice();
  for (let y = top; y <= bottom; y++) {
    const from = y + by;
    out[y] = from >= top && from <= bottom ? (screen[from] ?? BLANK_ROW) : BLANK_ROW;
  }
  return out;
}

function scrollSequence({ top, bottom, by }: ScrollShift, rows: number): string {
  const op = by > 0 ? `\x1b[${by === 1 ? '' : by}S` : `\x1b[${by === -1 ? '' : -by}T`;
  if (top === 0 && bottom === rows - 1) return op;
  return `\x1b[${top + 1};${bottom + 1}r${op}\x1b[r`;
}

export function createFrameWriter(options: FrameWriterOptions): FrameWriter {
  const { out } = options;
  const useScroll = options.scroll ?? true;
  let columns = options.columns;
  let rows = options.rows;
  let screen: Row[] = [];
  let lastFrame: string | readonly string[] | undefined;
  let full = true;
  let cursorShown = false;
  let state: TermState = { x: -1, y: -1, style: -1 };
  let cache = emptyParseCache();

  const render = (prev: readonly Row[], next: readonly Row[], start: TermState, prefix: (e: Emitter) => void): Emitter => {
    const e = new Emitter(start, columns, rows);
    prefix(e);
    diffScreen(prev, next, e, rows);
    if (e.state.style !== DEFAULT_STYLE) e.setStyle(DEFAULT_STYLE); // leave the terminal unstyled between frames
    return e;
  };

  return {
    get columns() {
      return columns;
    },
    get rows() {
      return rows;
    },
    writeFrame(frame) {
      if (!full && sameFrame(frame, lastFrame)) return;
      const next = parseFrame(frame, columns, rows, cache);
      let best: Emitter;
      if (full) {
        const blank = next.map(() => BLANK_ROW);
        best = render(blank, next, { x: -1, y: -1, style: -1 }, (e) => {
          e.raw('\x1b[?25l');
          e.defaultBackground();
          e.raw('\x1b[2J');
        });
      } else {
        best = render(screen, next, state, () => {});
        const shift = useScroll ? findScroll(screen, next) : undefined;
        if (shift) {
          const scrolled = render(applyScroll(screen, shift), next, state, (e) => {
            e.defaultBackground();
            e.raw(scrollSequence(shift, rows));
            // DECSTBM homes the cursor; SU/SD leave it, but do not rely on either.
            e.state.x = -1;
            e.state.y = -1;
          });
          if (scrolled.output.length < best.output.length) best = scrolled;
        }
      }
      // The cursor shown at the caret is hidden while the frame is drawn (it moves with every write).
      const body = best.output && cursorShown ? `\x1b[?25l${best.output}` : best.output;
      if (body) cursorShown = false;
      if (body) out.write(body.length >= SYNC_MIN_BYTES || full ? SYNC_BEGIN + body + SYNC_END : body);
      state = best.state;
      screen = next;
      lastFrame = frame;
      full = false;
    },
    showCursorAt(at, visible = true) {
      if (!at) {
        if (cursorShown) out.write('\x1b[?25l');
        cursorShown = false;
        return;
      }
      const there = state.x === at.col && state.y === at.row;
      if (there && cursorShown === visible) return;
      const hide = cursorShown && !visible ? '\x1b[?25l' : '';
      const move = there ? '' : `\x1b[${at.row + 1};${at.col + 1}H`;
      out.write(hide + move + (visible && !cursorShown ? '\x1b[?25h' : ''));
      cursorShown = visible;
      state = { ...state, x: at.col, y: at.row };
    },
    resize(c, r) {
      columns = c;
      rows = r;
      cache = emptyParseCache();
      full = true;
    },
    invalidate() {
      full = true;
    },
    assume(frame) {
      screen = parseFrame(frame, columns, rows, cache);
      lastFrame = frame;
      full = false;
      cursorShown = true;
      state = { x: -1, y: -1, style: -1 };
    },
  };
}
