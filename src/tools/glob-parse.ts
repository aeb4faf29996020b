/**
 * Glob syntax, parsed for the linear-time matcher in glob-match.ts: `*`, `**`, `?`, `[...]`, `{a,b}` and
 * `\` escapes. Extglobs (`@(a|b)`, `!(x)`, `+(x)`) and POSIX classes are not supported; callers say so.
 */

/** One character test: a literal, any character but `/`, or a bracket class (which never matches `/`). */
export type CharTest =
  | { kind: 'lit'; code: number }
  | { kind: 'any' }
  | { kind: 'class'; negated: boolean; ranges: [number, number][] };

/** A piece of a segment: a character test, a `*` run, or `{a,b}` alternatives within the segment. */
export type Item = CharTest | { kind: 'star' } | { kind: 'alt'; options: Item[][] };

/** A path segment: `**` alone, or a sequence of items. */
export type Segment = { kind: 'globstar' } | { kind: 'seq'; items: Item[] };

export class GlobSyntaxError extends Error {}

/** Where an expanded `{...}` option began or ended: matches nothing, and keeps `*` `*` from reading as `**`. */
const SEAM = '\uE000';

/** More alternatives than this from expanding `{...}` groups that hold a `/` is refused: each group multiplies them. */
export const MAX_ALTERNATIVES = 256;

/** Index of the `}` closing the `{` at `open`, with the top-level commas in between; undefined if unclosed. */
function braceGroup(p: string, open: number): { close: number; commas: number[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < p.length; i++) {
    const ch = p[i];
    if (ch === '\\') i++;
    else if (ch === '[') i = classEnd(p, i) ?? i;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return { close: i, commas };
    else if (ch === ',' && depth === 1) commas.push(i);
  }
  return undefined;
}

/**
 * Expands the `{a,b}` groups that hold a `/` (`{src,test/unit}/*.ts`), since their alternatives span segments.
 * Other groups stay for the matcher, which runs them side by side instead of multiplying patterns.
 */
export function expandBraces(pattern: string): string[] {
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') {
      i = classEnd(pattern, i) ?? i;
      continue;
    }
    if (ch !== '{') continue;
    const group = braceGroup(pattern, i);
    if (!group || group.commas.length === 0 || !pattern.slice(i, group.close).includes('/')) continue;
    const head = pattern.slice(0, i);
    const tail = pattern.slice(group.close + 1);
    const out: string[] = [];
    let from = i;
    for (const end of [...group.commas, group.close]) {
      // Marked at both ends so `{a/b,*}{c,*}` cannot join two stars into a `**` segment that was never written.
      const option = `${SEAM}${pattern.slice(from + 1, end)}${SEAM}`;
      from = end;
      for (const expanded of expandBraces(head + option + tail)) {
        out.push(expanded);
        if (out.length > MAX_ALTERNATIVES) throw new GlobSyntaxError(`the pattern expands to more than ${MAX_ALTERNATIVES} alternatives`);
      }
    }
    return out;
  }
  return [pattern];
}

/** Index of the `]` closing the class at `open`, or undefined when the `[` is a literal. */
function classEnd(p: string, open: number): number | undefined {
  let i = open + 1;
  if (p[i] === '!' || p[i] === '^') i++;
  if (p[i] === ']') i++; // a leading `]` is a member
  for (; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if (p[i] === ']') return i;
    else if (p[i] === '/') return undefined;
  }
  return undefined;
}

function parseClass(p: string, open: number, close: number): CharTest {
  let i = open + 1;
  const negated = p[i] === '!' || p[i] === '^';
  if (negated) i++;
  if (p.startsWith('[:', i)) throw new GlobSyntaxError('POSIX character classes like [[:alpha:]] are not supported; use a range like [a-zA-Z]');
  const ranges: [number, number][] = [];
  while (i < close) {
    if (p[i] === '\\') i++;
    const lo = p.charCodeAt(i);
    if (p[i + 1] === '-' && i + 2 < close) {
      let j = i + 2;
      if (p[j] === '\\') j++;
      ranges.push([lo, p.charCodeAt(j)]);
      i = j + 1;
    } else {
      ranges.push([lo, lo]);
      i++;
    }
  }
  return { kind: 'class', negated, ranges };
}

const EXTGLOB = /[@!+*?]\(/;

/** Parses `text[from, to)` of one segment into items; `{a,b}` groups become alternatives. */
function parseItems(text: string, from: number, to: number): Item[] {
  const items: Item[] = [];
  for (let i = from; i < to; i++) {
    const ch = text.charAt(i);
    const close = ch === '[' ? classEnd(text, i) : undefined;
    const group = ch === '{' ? braceGroup(text, i) : undefined;
    if (ch === SEAM) continue;
    if (ch === '\\' && i + 1 < to) items.push({ kind: 'lit', code: text.charCodeAt(++i) });
    else if (ch === '*') {
      if (items[items.length - 1]?.kind !== 'star') items.push({ kind: 'star' }); // `a**b` is `a*b`
    } else if (ch === '?') items.push({ kind: 'any' });
    else if (close !== undefined && close < to) {
      items.push(parseClass(text, i, close));
      i = close;
    } else if (group && group.commas.length > 0 && group.close < to) {
      const options: Item[][] = [];
      let start = i;
      for (const end of [...group.commas, group.close]) {
        options.push(parseItems(text, start + 1, end));
        start = end;
      }
      items.push({ kind: 'alt', options });
      i = group.close;
    } else items.push({ kind: 'lit', code: text.charCodeAt(i) });
  }
  return items;
}

/** Parses one pattern (with no `{...}` group spanning a `/`) into segments. */
export function parseSegments(pattern: string): Segment[] {
  if (EXTGLOB.test(pattern.replace(/\\./g, ''))) {
    throw new GlobSyntaxError('extglob patterns like @(a|b) or *(x) are not supported; use {a,b}, or escape a literal parenthesis as \\(');
  }
  const segments: Segment[] = [];
  for (const text of splitSegments(pattern)) {
    if (text === '**') {
      if (segments[segments.length - 1]?.kind !== 'globstar') segments.push({ kind: 'globstar' });
      continue;
    }
    segments.push({ kind: 'seq', items: parseItems(text, 0, text.length) });
  }
  return segments;
}

/** Splits on `/` outside brackets and escapes. */
function splitSegments(pattern: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '[') i = classEnd(pattern, i) ?? i;
    else if (pattern[i] === '/') {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out;
}
