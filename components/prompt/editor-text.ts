// Cursor arithmetic over the prompt text. Positions are UTF-16 indices that always sit on a
// grapheme boundary, so a cursor never splits a surrogate pair or an emoji sequence.
import { graphemes } from '../theme/text-width.js';

export function lineStart(text: string, pos: number): number {
  return pos <= 0 ? 0 : text.lastIndexOf('\n', pos - 1) + 1;
}

export function lineEnd(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  return nl === -1 ? text.length : nl;
}

/** Start of the grapheme that ends at `pos`. */
export function prevBoundary(text: string, pos: number): number {
  if (pos <= 0) return 0;
  if (text[pos - 1] === '\n') return pos - 1;
  const start = lineStart(text, pos);
  let last = start;
  for (const seg of graphemes(text.slice(start, pos))) last = start + seg.index;
  return last;
}

/** End of the grapheme that starts at `pos`. */
export function nextBoundary(text: string, pos: number): number {
  if (pos >= text.length) return text.length;
  if (text[pos] === '\n') return pos + 1;
  const end = lineEnd(text, pos);
  for (const seg of graphemes(text.slice(pos, end))) return pos + seg.segment.length;
  return end;
}

/** Moves `pos` back onto a grapheme boundary (e.g. after clamping a column on another line). */
export function snapToBoundary(text: string, pos: number): number {
  const p = Math.max(0, Math.min(pos, text.length));
  const start = lineStart(text, p);
  let snapped = start;
  for (const seg of graphemes(text.slice(start, lineEnd(text, p)))) {
    const at = start + seg.index;
    if (at > p) break;
    snapped = at;
  }
  return p === lineEnd(text, p) ? p : snapped;
}

const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch);

/** Readline's word rubout boundary: skip whitespace, then non-whitespace. */
export function prevWord(text: string, pos: number): number {
  let p = pos;
  while (p > 0 && isSpace(text[p - 1])) p--;
  while (p > 0 && !isSpace(text[p - 1])) p--;
  return snapToBoundary(text, p);
}

export function nextWord(text: string, pos: number): number {
  let p = pos;
  while (p < text.length && isSpace(text[p])) p++;
  while (p < text.length && !isSpace(text[p])) p++;
  return snapToBoundary(text, p);
}

/** Position on the previous/next line at the same offset from the line start (clamped). */
export function verticalMove(text: string, pos: number, dir: -1 | 1): number | undefined {
  const start = lineStart(text, pos);
  const column = pos - start;
  if (dir === -1) {
    if (start === 0) return undefined;
    const prevStart = lineStart(text, start - 1);
    return snapToBoundary(text, Math.min(prevStart + column, start - 1));
  }
  const end = lineEnd(text, pos);
  if (end === text.length) return undefined;
  const nextStart = end + 1;
  return snapToBoundary(text, Math.min(nextStart + column, lineEnd(text, nextStart)));
}

// Control characters other than newline and tab could inject terminal escapes when echoed.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Terminal text to prompt text: CR/CRLF become LF, other control characters are dropped. */
export function sanitizeInput(input: string): string {
  return input.replace(/\r\n?/g, '\n').replace(CONTROL, '');
}
