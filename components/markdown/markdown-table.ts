import type { MarkdownStyles } from './markdown-styles.js';
import { visibleWidth, wrapStyled } from './styled-text.js';

// Draws a table that fits `width`: columns keep their natural width when they can, otherwise
// the widest columns give up space and their cells wrap.

export type Align = 'left' | 'right' | 'center' | null;

const MIN_COLUMN = 3;

export function drawTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
  width: number,
  styles: MarkdownStyles,
): string[] {
  const columns = Math.max(header.length, ...rows.map((r) => r.length));
  if (columns === 0) return [];
  const natural = Array.from({ length: columns }, (_, c) =>
    Math.max(1, ...[header, ...rows].map((r) => cellWidth(r[c] ?? ''))),
  );
  const widths = fitColumns(natural, width - (3 * columns + 1));
  const b = styles.tableBorder;
  const rule = (l: string, m: string, r: string): string => b(l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r);
  const out = [rule('┌', '┬', '┐')];
  out.push(...drawRow(header.map((h) => styles.tableHeader(h)), widths, align, b));
  out.push(rule('├', '┼', '┤'));
  for (const row of rows) out.push(...drawRow(row, widths, align, b));
  out.push(rule('└', '┴', '┘'));
  return out;
}

function cellWidth(cell: string): number {
  return Math.max(0, ...cell.split('\n').map((l) => visibleWidth(l)));
}

/** Shares `available` columns: narrow columns keep their width, the rest split what is left. */
export function fitColumns(natural: readonly number[], available: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return [...natural];
  const widths = new Array<number>(natural.length).fill(0);
  const order = natural.map((w, i) => ({ w, i })).sort((a, b) => a.w - b.w);
  let remaining = Math.max(available, natural.length * MIN_COLUMN);
  order.forEach(({ w, i }, k) => {
    const share = Math.floor(remaining / (order.length - k));
    const given = Math.max(Math.min(w, MIN_COLUMN), Math.min(w, share));
    widths[i] = given;
    remaining -= given;
  });
  return widths;
}

function drawRow(
  cells: readonly string[],
  widths: readonly number[],
  align: readonly Align[],
  border: (s: string) => string,
): string[] {
  const wrapped = widths.map((w, c) => wrapStyled(cells[c] ?? '', w));
  const height = Math.max(1, ...wrapped.map((lines) => lines.length));
  const out: string[] = [];
  for (let r = 0; r < height; r++) {
    const parts = widths.map((w, c) => pad(wrapped[c]?.[r] ?? '', w, align[c] ?? null));
    out.push(border('│ ') + parts.join(border(' │ ')) + border(' │'));
  }
  return out;
}

function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - visibleWidth(text));
  if (align === 'right') return ' '.repeat(gap) + text;
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(gap - Math.floor(gap / 2));
  return text + ' '.repeat(gap);
}
