// Turns "the terminal shows rows A" into "the terminal shows rows B" with as few bytes as
// practical: only changed cells are written, the cursor takes the cheapest route, SGR is
// emitted only where the style changes, and shortened lines are cut with EL.
import { BLANK_ROW, cellAt, cellsEqual, type Cell, type Row } from './cell-grid.js';
import { cursorMove, cursorMoveLength } from './cursor-moves.js';
import { DEFAULT_STYLE, sgrTransition, styleOf } from './sgr.js';

/** What the writer knows about the terminal: cursor (x/y -1 = unknown) and SGR style (-1 = unknown). */
export interface TermState {
  x: number;
  y: number;
  style: number;
}

export class Emitter {
  private readonly parts: string[] = [];
  readonly state: TermState;

  constructor(
    state: TermState,
    private readonly columns: number,
    private readonly rows: number,
  ) {
    this.state = { ...state };
  }

  get output(): string {
    return this.parts.join('');
  }

  raw(s: string): void {
    this.parts.push(s);
  }

  moveTo(x: number, y: number): void {
    const { state } = this;
    const move = cursorMove(state.x, state.y, x, y, this.rows);
    if (move) this.parts.push(move);
    state.x = x;
    state.y = y;
  }

  setStyle(style: number): void {
    const sgr = sgrTransition(this.state.style, style);
    if (sgr) this.parts.push(sgr);
    this.state.style = style;
  }

  /** Erase operations fill with the current background (BCE), so it must be the default. */
  defaultBackground(): void {
    const { style } = this.state;
    if (style < 0 || styleOf(style).bg !== '') this.setStyle(DEFAULT_STYLE);
  }

  cell(cell: Cell): void {
    this.setStyle(cell.s);
    this.parts.push(cell.ch);
    const end = this.state.x + cell.w;
    // Past the last column the terminal is in pending-wrap state; after a grapheme whose
    // width terminals disagree on, the real column is uncertain. Either way: re-position.
    this.state.x = end >= this.columns || cell.risky ? -1 : end;
  }

  eraseToEnd(): void {
    this.defaultBackground();
    this.parts.push('\x1b[K');
  }
}

const utf8Length = (s: string): number => (s.length === 1 && s.charCodeAt(0) < 0x80 ? 1 : Buffer.byteLength(s));

/**
 * With the cursor just after a written run at `from` (style `style`), is rewriting the
 * unchanged cells [from, to) no more bytes than moving over them?
 */
function gapIsCheap(next: Row, from: number, to: number, y: number, style: number, rows: number): boolean {
  const move = cursorMoveLength(from, y, to, y, rows);
  let bytes = 0;
  for (let x = from; x < to; x++) {
    const cell = cellAt(next, x);
    if (cell.s !== style || cell.risky) return false;
    bytes += cell.w === 0 ? 0 : utf8Length(cell.ch);
    if (bytes > move) return false;
  }
  return true;
}

const isHalf = (row: Row, x: number): boolean => cellAt(row, x).w === 0;

/** Emits the bytes turning row `prev` into row `next` on screen line `y`. */
export function diffRow(prev: Row, next: Row, y: number, e: Emitter, rows: number): void {
  if (prev === next || prev.key === next.key) return;
  const newLen = next.cells.length;
  const same = (x: number): boolean => cellsEqual(cellAt(prev, x), cellAt(next, x));
  let x = 0;
  while (x < newLen) {
    if (same(x)) {
      x++;
      continue;
    }
    // Widen the run so that no wide character (old or new) is split at either end:
    // then the terminal's own wide-char cleanup only touches cells we rewrite anyway.
    let start = x;
    while (start > 0 && (isHalf(prev, start) || isHalf(next, start))) start--;
    let end = x + 1;
    for (;;) {
      while (end < newLen && (!same(end) || isHalf(prev, end) || isHalf(next, end))) end++;
      let gapEnd = end;
      while (gapEnd < newLen && same(gapEnd)) gapEnd++;
      // Merge with the next changed run when rewriting the gap beats moving over it.
      if (gapEnd >= newLen || !gapIsCheap(next, end, gapEnd, y, cellAt(next, end - 1).s, rows)) break;
      end = gapEnd;
    }
    for (let cx = start; cx < end; cx++) {
      const cell = cellAt(next, cx);
      if (cell.w === 0) continue;
      e.moveTo(cx, y);
      e.cell(cell);
    }
    x = end;
  }
  if (prev.cells.length > newLen) {
    e.moveTo(newLen, y);
    e.eraseToEnd();
  }
}

/** Emits the bytes turning screen `prev` into screen `next` (same number of rows). */
export function diffScreen(prev: readonly Row[], next: readonly Row[], e: Emitter, rows: number): void {
  for (let y = 0; y < next.length; y++) diffRow(prev[y] ?? BLANK_ROW, next[y] ?? BLANK_ROW, y, e, rows);
}
