// The prompt box as finished terminal lines: a rounded, dim border, "> " and the wrapped text
// with the caret drawn inverse and marked (CARET_MARK) for the terminal's own cursor. Drawn by
// the screen painter straight to the frame writer, so a keystroke never waits for Ink; the
// PromptBox component shows the same lines through Ink where there is no writer.
import { CARET_MARK } from '../terminal/caret.js';
import type { EditorState } from './editor.js';
import { firstVisibleRow, layoutPrompt, type PromptRow } from './prompt-layout.js';

export interface PromptLinesInput {
  state: EditorState;
  width: number;
  focused: boolean;
  placeholder?: string;
  maxLines?: number;
  busy?: boolean;
  /** One row, no border: the rows went to a waiting approval (a small terminal). */
  bare?: boolean;
}

export const DEFAULT_MAX_LINES = 10;
// Border (1) + padding (1) on each side, then the two-column "> " prompt.
const CHROME_COLUMNS = 6;

const dim = (s: string): string => `\x1b[2m${s}\x1b[22m`;
const inverse = (s: string): string => `\x1b[7m${s}\x1b[27m`;

/** The empty prompt's hint. */
export function promptPlaceholder(busy: boolean): string {
  return busy ? 'Type to queue a prompt · Esc to interrupt' : 'Ask cairn · / for commands';
}

export function promptTextWidth(width: number): number {
  return Math.max(1, width - CHROME_COLUMNS);
}

/** Rows the box takes, borders included, so the layout can reserve them. */
export function promptBoxHeight(state: EditorState, width: number, maxLines: number = DEFAULT_MAX_LINES): number {
  const rows = layoutPrompt(state.text, state.cursor, promptTextWidth(width)).rows.length;
  return Math.min(rows, Math.max(1, maxLines)) + 2;
}

function rowWidth(row: PromptRow): number {
  let w = 0;
  for (const cell of row.cells) w += cell.width;
  return w;
}

/** A row's text, the caret cell inverse and marked when `cursorCol` is given. */
function rowText(row: PromptRow, cursorCol: number | undefined): { text: string; width: number } {
  const plain = row.cells.map((c) => c.text).join('');
  const width = rowWidth(row);
  if (cursorCol === undefined) return { text: plain, width };
  let col = 0;
  let split = row.cells.length;
  for (const [i, cell] of row.cells.entries()) {
    if (col >= cursorCol) {
      split = i;
      break;
    }
    col += cell.width;
  }
  const before = row.cells.slice(0, split).map((c) => c.text).join('');
  const atCell = row.cells[split];
  const after = row.cells.slice(split + 1).map((c) => c.text).join('');
  // The caret past the end of the text takes one more column.
  return { text: before + inverse(CARET_MARK + (atCell?.text ?? ' ')) + after, width: atCell ? width : width + 1 };
}

function placeholderText(text: string, width: number, focused: boolean): { text: string; width: number } {
  const oneLine = text.replace(/\s+/g, ' ');
  const row = layoutPrompt(oneLine, 0, width).rows[0];
  const cells = row?.cells ?? [];
  const w = row ? rowWidth(row) : 0;
  if (!focused) return { text: dim(cells.map((c) => c.text).join('')), width: w };
  const first = cells[0];
  return { text: inverse(CARET_MARK + (first?.text ?? ' ')) + dim(cells.slice(1).map((c) => c.text).join('')), width: first ? w : w + 1 };
}

/** The box's lines, each exactly `width` columns wide (the bare form: one line, unpadded). */
export function promptLines({ state, width, focused, placeholder, maxLines = DEFAULT_MAX_LINES, busy = false, bare = false }: PromptLinesInput): string[] {
  const prompt = busy ? dim('> ') : `\x1b[1m> \x1b[22m`;
  const showPlaceholder = state.text === '' && placeholder !== undefined && placeholder !== '';
  if (bare) {
    const textWidth = Math.max(1, width - 2);
    if (showPlaceholder) return [prompt + placeholderText(placeholder, textWidth, focused).text];
    const layout = layoutPrompt(state.text, state.cursor, textWidth);
    const row = layout.rows[layout.cursorRow] ?? layout.rows[0];
    return [prompt + (row ? rowText(row, focused ? layout.cursorCol : undefined).text : '')];
  }
  const inner = promptTextWidth(width);
  const border = (left: string, right: string): string => dim(left + '─'.repeat(Math.max(0, width - 2)) + right);
  const content = (lead: string, body: { text: string; width: number }): string =>
    `${dim('│')} ${lead}${body.text}${' '.repeat(Math.max(0, inner - body.width))} ${dim('│')}`;
  const lines = [border('╭', '╮')];
  if (showPlaceholder) {
    lines.push(content(prompt, placeholderText(placeholder, inner, focused)));
  } else {
    const layout = layoutPrompt(state.text, state.cursor, inner);
    const rows = Math.max(1, maxLines);
    const first = firstVisibleRow(layout, rows);
    layout.rows.slice(first, first + rows).forEach((row, i) => {
      const index = first + i;
      lines.push(content(index === 0 ? prompt : '  ', rowText(row, focused && index === layout.cursorRow ? layout.cursorCol : undefined)));
    });
  }
  lines.push(border('╰', '╯'));
  return lines;
}
