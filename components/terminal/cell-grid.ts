// Parses frame text (lines with SGR escapes) into rows of terminal cells, the way a
// terminal would lay them out: wide characters take two cells, combining marks join
// the previous cell, tabs expand, anything past the last column is clipped.
import { graphemes, stringWidth } from '../theme/text-width.js';
import { DEFAULT_STYLE, applySgr } from './sgr.js';

export interface Cell {
  /** The grapheme shown; '' for the right half of a wide character. */
  readonly ch: string;
  /** 2 for a wide character's left half, 0 for its right half, else 1. */
  readonly w: 0 | 1 | 2;
  readonly s: number;
  /**
   * Terminals disagree on this grapheme's width (emoji sequences, VS16, flags), so the
   * writer must not trust its own idea of where the cursor ends up after printing it.
   */
  readonly risky: boolean;
}

export interface Row {
  /** Cells up to the last non-blank one; everything after is a default-styled space. */
  readonly cells: readonly Cell[];
  /** Identifies the row's content: start style + source text (same key, same cells). */
  readonly key: string;
  /** Style in effect after the line, carried into the next line as a terminal would. */
  readonly endStyle: number;
}

export const BLANK: Cell = { ch: ' ', w: 1, s: DEFAULT_STYLE, risky: false };
export const BLANK_ROW: Row = { cells: [], key: '', endStyle: DEFAULT_STYLE };

export const cellAt = (row: Row, x: number): Cell => row.cells[x] ?? BLANK;

export const cellsEqual = (a: Cell, b: Cell): boolean => a === b || (a.ch === b.ch && a.w === b.w && a.s === b.s);

const pictographic = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u200d|\ufe0f/u;
const widthCache = new Map<string, { w: number; risky: boolean }>();

/** Width of one grapheme (0, 1 or 2) per string-width, plus whether terminals disagree on it. */
export function graphemeInfo(g: string): { w: number; risky: boolean } {
  let info = widthCache.get(g);
  if (!info) {
    const w = Math.min(2, stringWidth(g));
    const codePoints = [...g];
    let sum = 0;
    for (const cp of codePoints) sum += Math.min(2, stringWidth(cp));
    info = { w, risky: w > 0 && (sum !== w || (codePoints.length > 1 && pictographic.test(g))) };
    if (widthCache.size > 10_000) widthCache.clear();
    widthCache.set(g, info);
  }
  return info;
}

// CSI (group 1 = params, group 2 = final byte), OSC (dropped: hyperlinks are not kept),
// other escapes, and C0/C1 controls.
const CONTROL = /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][\s\S]*?(?:\x07|\x1b\\|$)|\x1b[\s\S]?|[\x00-\x1f\x7f-\x9f]/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// One cell object per (printable ASCII character, style), shared by every row that shows it.
const asciiCells = new Map<number, Cell[]>();
function asciiCell(code: number, s: number): Cell {
  let cells = asciiCells.get(s);
  if (!cells) {
    cells = [];
    if (asciiCells.size < 10_000) asciiCells.set(s, cells);
  }
  return (cells[code] ??= { ch: String.fromCharCode(code), w: 1, s, risky: false });
}
function makeCell(ch: string, w: 0 | 1 | 2, s: number, risky: boolean): Cell {
  if (w !== 1 || risky || ch.length !== 1) return { ch, w, s, risky };
  const code = ch.charCodeAt(0);
  return code < 0x80 ? asciiCell(code, s) : { ch, w, s, risky };
}

/** Parses one line starting in style `startStyle`, clipped to `columns` cells. */
export function parseLine(line: string, startStyle: number, columns: number): Row {
  const cells: Cell[] = [];
  let style = startStyle;
  let lead = -1; // index of the last cell a combining mark may join

  const put = (ch: string, w: number, risky: boolean): void => {
    if (w === 0) {
      const prev = cells[lead];
      if (prev) cells[lead] = { ...prev, ch: prev.ch + ch, risky: prev.risky || risky };
      return;
    }
    if (cells.length >= columns) {
      lead = -1;
      return;
    }
    if (w === 2 && cells.length + 2 > columns) {
      cells.push(makeCell(' ', 1, style, false)); // a wide char that does not fit is clipped
      lead = -1;
      return;
    }
    lead = cells.length;
    cells.push(makeCell(ch, w === 2 ? 2 : 1, style, risky));
    if (w === 2) cells.push({ ch: '', w: 0, s: style, risky: false });
  };

  const text = (t: string): void => {
    if (PRINTABLE_ASCII.test(t)) {
      // Cells past the last column are dropped (put's rule), and no combining mark follows.
      const end = Math.min(t.length, Math.max(0, columns - cells.length));
      for (let i = 0; i < end; i++) cells.push(asciiCell(t.charCodeAt(i), style));
      lead = end > 0 ? cells.length - 1 : lead;
      if (end < t.length) lead = -1;
      return;
    }
    for (const { segment } of graphemes(t)) {
      const info = graphemeInfo(segment);
      put(segment, info.w, info.risky);
    }
  };

  CONTROL.lastIndex = 0;
  let at = 0;
  for (let m = CONTROL.exec(line); m; m = CONTROL.exec(line)) {
    if (m.index > at) text(line.slice(at, m.index));
    at = CONTROL.lastIndex;
    if (m[2] === 'm') style = applySgr(style, m[1] ?? '');
    else if (m[0] === '\t') {
      const stop = Math.min(columns, (Math.floor(cells.length / 8) + 1) * 8);
      while (cells.length < stop) put(' ', 1, false);
      lead = -1;
    }
  }
  if (at < line.length) text(line.slice(at));

  while (cells.length > 0 && cellsEqual(cells[cells.length - 1] ?? BLANK, BLANK)) cells.pop();
  return { cells, key: `${startStyle}\u0001${line}`, endStyle: style };
}

/**
 * The previous frame's lines and rows, so a line that did not change (or only moved) is not
 * parsed again. Lines are compared by index first (most of a streaming frame is unchanged), then
 * by content among the previous rows (lines that moved, as when the transcript scrolls).
 */
export interface ParseCache {
  lines: readonly string[];
  rows: readonly Row[];
  /** Built only when a line is not where it was: row key -> row. */
  byKey?: Map<string, Row>;
}

/** An empty cache (the first frame, or after a resize: every line is parsed). */
export const emptyParseCache = (): ParseCache => ({ lines: [], rows: [] });

/**
 * Parses a whole frame (its lines) into exactly `rows` rows (extra lines dropped, missing ones
 * blank). `cache` holds the previous frame's lines and rows and is updated to this frame's.
 */
export function parseFrame(frame: string | readonly string[], columns: number, rows: number, cache?: ParseCache): Row[] {
  const lines = typeof frame === 'string' ? frame.split('\n', rows) : frame.length > rows ? frame.slice(0, rows) : frame;
  const out: Row[] = [];
  let style = DEFAULT_STYLE;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    let row: Row | undefined;
    if (cache) {
      const same = cache.rows[i];
      if (same && cache.lines[i] === line && (i === 0 ? DEFAULT_STYLE : cache.rows[i - 1]?.endStyle) === style) row = same;
      else {
        cache.byKey ??= new Map(cache.rows.map((r) => [r.key, r]));
        row = cache.byKey.get(`${style}\u0001${line}`);
      }
    }
    row ??= parseLine(line, style, columns);
    out.push(row);
    style = row.endStyle;
  }
  const parsed = out.length;
  while (out.length < rows) out.push(BLANK_ROW);
  if (cache) {
    cache.lines = lines;
    cache.rows = out.slice(0, parsed);
    cache.byKey = undefined;
  }
  return out;
}
