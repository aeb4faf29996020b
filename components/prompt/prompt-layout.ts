import { graphemes, stringWidth } from '../theme/text-width.js';
import { itemAt } from '../../src/util/invariant.js';

// Wraps prompt text into visual rows of at most `width` columns and finds the cursor in them.
// Widths come from string-width, the same measure Ink uses, so Ink never re-wraps a row.

export type PromptCell = { text: string; width: number; index: number };
/** `start`..`end` is the text range of the row; `end` of a line's last row is the line end. */
export type PromptRow = { cells: PromptCell[]; start: number; end: number };
export type PromptLayout = { rows: PromptRow[]; cursorRow: number; cursorCol: number };

const TAB_WIDTH = 4;

function cellsOf(line: string, offset: number, width: number): PromptCell[] {
  const cells: PromptCell[] = [];
  for (const { segment, index } of graphemes(line)) {
    if (segment === '\t') {
      const w = Math.min(TAB_WIDTH, width);
      cells.push({ text: ' '.repeat(w), width: w, index: offset + index });
    } else {
      // A zero-width grapheme (stray combining mark) still needs a cell for the cursor.
      cells.push({ text: segment, width: Math.min(Math.max(1, stringWidth(segment)), width), index: offset + index });
    }
  }
  return cells;
}

function wrapLine(line: string, offset: number, width: number): PromptRow[] {
  const cells = cellsOf(line, offset, width);
  const lineEnd = offset + line.length;
  const rows: PromptRow[] = [];
  let row: PromptCell[] = [];
  let used = 0;
  let breakAfter = -1; // index in `row` after which a word break may happen
  for (const cell of cells) {
    if (used + cell.width > width && row.length > 0) {
      const cut = breakAfter >= 0 && breakAfter < row.length - 1 ? breakAfter + 1 : row.length;
      const carried = row.slice(cut);
      row = row.slice(0, cut);
      rows.push({ cells: row, start: row[0]?.index ?? offset, end: carried[0]?.index ?? cell.index });
      row = carried;
      used = carried.reduce((n, c) => n + c.width, 0);
      breakAfter = -1;
    }
    row.push(cell);
    used += cell.width;
    if (cell.text.trim() === '') breakAfter = row.length - 1;
  }
  rows.push({ cells: row, start: row[0]?.index ?? lineEnd, end: lineEnd });
  return rows;
}

export function layoutPrompt(text: string, cursor: number, width: number): PromptLayout {
  const w = Math.max(1, width);
  const rows: PromptRow[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    rows.push(...wrapLine(line, offset, w));
    offset += line.length + 1;
  }
  let cursorRow = rows.length - 1;
  for (const [i, r] of rows.entries()) {
    const next = rows[i + 1];
    const lastOfLine = next === undefined || next.start !== r.end;
    if (cursor >= r.start && (cursor < r.end || (cursor === r.end && lastOfLine))) {
      cursorRow = i;
      break;
    }
  }
  const row = itemAt(rows, cursorRow, 'prompt row');
  let cursorCol = 0;
  for (const c of row.cells) {
    if (c.index >= cursor) break;
    cursorCol += c.width;
  }
  // The cursor after a full row's last character needs a row of its own.
  if (cursorCol >= w && cursor === row.end) {
    rows.splice(cursorRow + 1, 0, { cells: [], start: cursor, end: cursor });
    cursorRow++;
    cursorCol = 0;
  }
  return { rows, cursorRow, cursorCol };
}

/** First row shown when at most `maxLines` rows fit: the view follows the cursor. */
export function firstVisibleRow(layout: PromptLayout, maxLines: number): number {
  const total = layout.rows.length;
  if (total <= maxLines) return 0;
  return Math.min(Math.max(0, layout.cursorRow - maxLines + 1), total - maxLines);
}
