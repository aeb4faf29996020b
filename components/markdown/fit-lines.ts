import { clipStyled, splitAtWidth, stripAnsi, visibleWidth, wrapStyled } from './styled-text.js';

// Fits styled lines to a width: long lines wrap with a hanging indent that keeps list
// markers and quote/code gutters lined up; anything still too wide is clipped.

export const GUTTER = '│ ';

// The structure at the start of a rendered line: indentation, gutters, one list marker.
const PREFIX = /^(?: |│ )*(?:(?:[•◦▪*-]|\d{1,9}[.)]) )?(?:\[[ x]\] )?(?: |│ )*/;
const MIN_BODY = 12;

export function isBlank(line: string): boolean {
  return stripAnsi(line).trim() === '';
}

export function fitLines(lines: readonly string[], width: number, gutter: (s: string) => string): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const line of lines) {
    if (visibleWidth(line) <= w) out.push(line);
    else for (const piece of wrapWithPrefix(line, w, gutter)) out.push(clip(piece, w));
  }
  return out;
}

function wrapWithPrefix(line: string, width: number, gutter: (s: string) => string): string[] {
  const plainPrefix = PREFIX.exec(stripAnsi(line))?.[0] ?? '';
  const prefixWidth = visibleWidth(plainPrefix);
  if (prefixWidth === 0 || width - prefixWidth < MIN_BODY) return wrapStyled(line, width);
  const [head, body] = splitAtWidth(line, prefixWidth);
  // Continuation rows keep gutters but turn list markers into spaces.
  const hanging = plainPrefix
    .split(GUTTER)
    .map((part) => ' '.repeat(visibleWidth(part)))
    .join(gutter(GUTTER));
  return wrapStyled(body, width - prefixWidth).map((row, i) => (i === 0 ? head : hanging) + row);
}

export function clip(line: string, width: number): string {
  return visibleWidth(line) <= width ? line : clipStyled(line, width);
}

/** Tabs to spaces (terminals would jump to tab stops we do not track). */
export function expandTabs(text: string, size = 4): string {
  return text.replace(/\t/g, ' '.repeat(size));
}
