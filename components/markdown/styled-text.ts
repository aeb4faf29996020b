import { graphemes, stringWidth } from '../theme/text-width.js';
import { carryStyles } from './sgr-carry.js';

// Width-aware wrapping and slicing of strings holding SGR/OSC sequences. Written here because
// wrap-ansi cost ~125 ms per 800-line answer (most of a render) and drops nested styles.
// Widths come from string-width, the measure Ink itself uses.

export type Unit = { s: string; w: number; kind: 'esc' | 'space' | 'char' };

const ESCAPE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
const ASCII = /^[\x20-\x7e]*$/;

/** Text without its SGR and OSC sequences: the one copy of this for the TUI. */
export function stripAnsi(text: string): string {
  return text.replace(ESCAPE, '');
}
const widthCache = new Map<string, number>();

function graphemeWidth(g: string): number {
  let w = widthCache.get(g);
  if (w === undefined) {
    w = stringWidth(g);
    if (widthCache.size < 10_000) widthCache.set(g, w);
  }
  return w;
}

const ASCII_RUNS = / +|[^ ]+/g;

function pushText(units: Unit[], text: string, words: boolean): void {
  if (ASCII.test(text)) {
    if (words) {
      // A run of spaces or of other printable ASCII is one unit of its length (wrapping only
      // breaks between them; a word too long for a row is cut character by character).
      for (const [run] of text.matchAll(ASCII_RUNS)) units.push({ s: run, w: run.length, kind: run.charCodeAt(0) === 32 ? 'space' : 'char' });
      return;
    }
    for (const ch of text) units.push({ s: ch, w: 1, kind: ch === ' ' ? 'space' : 'char' });
    return;
  }
  for (const { segment } of graphemes(text)) {
    units.push({ s: segment, w: graphemeWidth(segment), kind: segment === ' ' ? 'space' : 'char' });
  }
}

/** Escapes, spaces and characters (graphemes); with `words`, runs of ASCII spaces or non-spaces as one unit each. */
export function tokenize(line: string, words = false): Unit[] {
  const units: Unit[] = [];
  let last = 0;
  for (const m of line.matchAll(ESCAPE)) {
    if (m.index > last) pushText(units, line.slice(last, m.index), words);
    units.push({ s: m[0], w: 0, kind: 'esc' });
    last = m.index + m[0].length;
  }
  if (last < line.length) pushText(units, line.slice(last), words);
  return units;
}

export function visibleWidth(line: string): number {
  const plain = line.includes('\x1b') ? line.replace(ESCAPE, '') : line;
  if (ASCII.test(plain)) return plain.length;
  let w = 0;
  for (const { segment } of graphemes(plain)) w += graphemeWidth(segment);
  return w;
}

/** Splits at `width` columns; escapes at the cut go with the tail, so it opens its own styles. */
export function splitAtWidth(line: string, width: number): [string, string] {
  let head = '';
  let used = 0;
  const units = tokenize(line);
  let i = 0;
  for (const u of units) {
    if (u.kind === 'esc' ? used >= width : used + u.w > width) break;
    head += u.s;
    used += u.w;
    i++;
  }
  return [head, units.slice(i).map((u) => u.s).join('')];
}

/** Clips to `width` columns, keeping every escape so styles still close. */
export function clipStyled(line: string, width: number): string {
  let out = '';
  let used = 0;
  let full = false;
  for (const u of tokenize(line)) {
    if (u.kind === 'esc') out += u.s;
    else if (!full && used + u.w <= width) {
      out += u.s;
      used += u.w;
    } else full = true;
  }
  return out;
}

/**
 * Greedy word wrap to `width` columns; a word longer than a row starts a new row and is cut.
 * Spaces at a break are dropped. Each row closes its open styles and the next reopens them.
 */
export function wrapStyled(line: string, width: number): string[] {
  return wrapUnits(tokenize(line, true), width);
}

/** wrapStyled over units already tokenized (per character, or with ASCII runs grouped: the same rows). */
export function wrapUnits(units: readonly Unit[], width: number): string[] {
  const w = Math.max(1, width);
  const rows: string[] = [];
  let row = '';
  let rowW = 0;
  let spaces = '';
  let spacesW = 0;
  let word: Unit[] = [];
  let wordW = 0;

  const breakRow = (): void => {
    rows.push(row);
    row = '';
    rowW = 0;
  };
  const placeWord = (): void => {
    if (word.length === 0) return;
    const text = word.map((u) => u.s).join('');
    if (wordW === 0) {
      row += text; // styles only: never worth a row of their own
    } else if (rowW + spacesW + wordW <= w) {
      row += spaces + text;
      rowW += spacesW + wordW;
    } else if (wordW <= w) {
      breakRow();
      row = text;
      rowW = wordW;
    } else {
      // Longer than a row: it starts a row of its own (a path or URL reads better whole-ish).
      if (rowW > 0) breakRow();
      for (const u of word) {
        if (u.kind === 'esc') {
          row += u.s;
          continue;
        }
        // A run of ASCII characters is one unit: cut it where the row ends.
        const chars = u.s.length > 1 && ASCII.test(u.s) ? u.s : undefined;
        if (!chars) {
          if (rowW + u.w > w) breakRow();
          row += u.s;
          rowW += u.w;
          continue;
        }
        for (const ch of chars) {
          if (rowW + 1 > w) breakRow();
          row += ch;
          rowW += 1;
        }
      }
    }
    word = [];
    wordW = 0;
    spaces = '';
    spacesW = 0;
  };

  for (const u of units) {
    if (u.kind === 'space') {
      if (word.length > 0) placeWord();
      spaces += u.s;
      spacesW += u.w;
    } else {
      word.push(u);
      wordW += u.w;
    }
  }
  placeWord();
  // Trailing spaces are dropped, except that a line of only spaces stays one (empty) row.
  rows.push(row);
  return carryStyles(rows);
}
