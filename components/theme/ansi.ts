import { stringWidth } from './text-width.js';
import { splitAtWidth, stripAnsi, wrapStyled } from '../markdown/styled-text.js';
import type { ColorToken, Theme } from './theme.js';

// Lines in the transcript are pre-rendered strings with SGR codes, so width, clipping and
// wrapping must understand those codes and wide (CJK, emoji) characters.


export function paint(theme: Theme, token: ColorToken, text: string): string {
  const code = theme.colors[token];
  if (!code || text === '') return text;
  return `\x1b[${code}m${text}\x1b[0m`;
}

/** Bold/inverse are attributes, not colour: kept under NO_COLOR so selection stays visible. */
export function bold(text: string): string {
  return text === '' ? text : `\x1b[1m${text}\x1b[22m`;
}
export function inverse(text: string): string {
  return text === '' ? text : `\x1b[7m${text}\x1b[27m`;
}

export { stripAnsi };

const wideCache = new Map<number, number>();

/** Columns one code point takes: string-width's answer (the one Ink uses), cached per code point. */
export function charWidth(cp: number): number {
  if (cp >= 32 && cp < 0x7f) return 1;
  let w = wideCache.get(cp);
  if (w === undefined) {
    w = stringWidth(String.fromCodePoint(cp));
    wideCache.set(cp, w);
  }
  return w;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of stripAnsi(text)) w += charWidth(ch.codePointAt(0) ?? 0);
  return w;
}

const ANSI_STICKY = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** Cuts a line to at most `width` columns, keeping escape codes and closing any open style. */
export function clipLine(line: string, width: number): string {
  if (width <= 0) return '';
  // Most rows are short plain text: nothing to measure.
  if (line.length <= width && PLAIN_ASCII.test(line)) return line;
  let w = 0;
  let styled = false;
  let i = 0;
  while (i < line.length) {
    if (line.charCodeAt(i) === 0x1b) {
      ANSI_STICKY.lastIndex = i;
      if (ANSI_STICKY.test(line)) {
        styled = true;
        i = ANSI_STICKY.lastIndex;
        continue;
      }
    }
    const cp = line.codePointAt(i) ?? 0;
    const cw = charWidth(cp);
    if (w + cw > width) return styled ? `${line.slice(0, i)}\x1b[0m` : line.slice(0, i);
    w += cw;
    i += cp > 0xffff ? 2 : 1;
  }
  return line;
}

/**
 * Wraps plain or styled text to `width` columns at word boundaries; a word is broken only when it
 * is longer than a line. Continuation rows hang under the text (see hangingIndent). Tabs become
 * spaces, newlines split, styles carry over to the next row.
 */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  const w = Math.max(1, width);
  for (const raw of text.replace(/\t/g, '  ').split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (textWidth(line) <= w) {
      out.push(line);
      continue;
    }
    const hang = hangingIndent(stripAnsi(line), w);
    if (hang === 0) {
      out.push(...wrapStyled(line, w));
      continue;
    }
    const [head, body] = splitAtWidth(line, hang);
    const pad = ' '.repeat(hang);
    wrapStyled(body, w - hang).forEach((row, i) => out.push(i === 0 ? head + row : pad + row));
  }
  return out;
}

// A list item ("- ", "• ", "1. ") or a two-column row ("  /team [args]   what it does", "y  yes").
const LIST_ITEM = /^ *(?:[-*•◦▪]|\d{1,3}[.)]) +(?=\S)/;
const SECOND_COLUMN = /^ *\S(?:\S| (?! ))* {2,}(?=\S)/;

/**
 * Where continuation rows start: under a list item's text, under the second column of a
 * two-column row, else under the line's own indentation; never more than half the width.
 */
export function hangingIndent(plain: string, width: number): number {
  const max = Math.floor(width / 2);
  for (const pattern of [LIST_ITEM, SECOND_COLUMN]) {
    const m = pattern.exec(plain);
    if (m && textWidth(m[0]) <= max) return textWidth(m[0]);
  }
  const indent = plain.search(/[^ ]|$/);
  return indent <= max ? indent : 0;
}

/** Paints each wrapped line separately so a style never spans a line break. */
export function wrapPainted(theme: Theme, token: ColorToken, text: string, width: number): string[] {
  return wrapText(stripAnsi(text), width).map((l) => paint(theme, token, l));
}
