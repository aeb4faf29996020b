// Text styles as interned integer ids, SGR parsing into them, and the shortest SGR
// sequence that turns one style into another. Interning makes cell comparison a
// single integer compare in the diff loop.

export const BOLD = 1;
export const DIM = 2;
export const ITALIC = 4;
export const UNDERLINE = 8;
export const BLINK = 16;
export const INVERSE = 32;
export const HIDDEN = 64;
export const STRIKE = 128;
export const OVERLINE = 256;

/** fg/bg hold the SGR parameters that select the colour ('' = terminal default). */
export interface Style {
  readonly fg: string;
  readonly bg: string;
  readonly flags: number;
}

/** Id of the terminal's default style; -1 is used by callers for "unknown". */
export const DEFAULT_STYLE = 0;

const styles: Style[] = [{ fg: '', bg: '', flags: 0 }];
const ids = new Map<string, number>([['||0', 0]]);

export function internStyle(fg: string, bg: string, flags: number): number {
  const key = `${fg}|${bg}|${flags}`;
  let id = ids.get(key);
  if (id === undefined) {
    id = styles.length;
    styles.push({ fg, bg, flags });
    ids.set(key, id);
  }
  return id;
}

export function styleOf(id: number): Style {
  const style = styles[id];
  if (!style) throw new Error(`unknown style id ${id}`);
  return style;
}

const ON: ReadonlyArray<readonly [number, string]> = [
  [BOLD, '1'], [DIM, '2'], [ITALIC, '3'], [UNDERLINE, '4'], [BLINK, '5'],
  [INVERSE, '7'], [HIDDEN, '8'], [STRIKE, '9'], [OVERLINE, '53'],
];
// Bold and dim share one "off" code (22), handled separately.
const OFF: ReadonlyArray<readonly [number, string]> = [
  [ITALIC, '23'], [UNDERLINE, '24'], [BLINK, '25'], [INVERSE, '27'],
  [HIDDEN, '28'], [STRIKE, '29'], [OVERLINE, '55'],
];
const SIMPLE: Record<string, readonly [set: number, clear: number]> = {
  '1': [BOLD, 0], '2': [DIM, 0], '3': [ITALIC, 0], '4': [UNDERLINE, 0], '5': [BLINK, 0],
  '6': [BLINK, 0], '7': [INVERSE, 0], '8': [HIDDEN, 0], '9': [STRIKE, 0], '21': [UNDERLINE, 0],
  '53': [OVERLINE, 0], '22': [0, BOLD | DIM], '23': [0, ITALIC], '24': [0, UNDERLINE],
  '25': [0, BLINK], '27': [0, INVERSE], '28': [0, HIDDEN], '29': [0, STRIKE], '55': [0, OVERLINE],
};

const byte = (s: string | undefined): number | undefined => {
  if (s === undefined || !/^\d{1,3}$/.test(s)) return undefined;
  const n = Number(s);
  return n <= 255 ? n : undefined;
};

/** Extended colour (38/48/58) in either `;` or `:` form; returns canonical params and params consumed. */
function extendedColor(base: string, parts: readonly string[], i: number): [string | undefined, number] {
  const part = parts[i] ?? '';
  if (part.includes(':')) {
    const sub = part.split(':');
    if (sub[1] === '5') {
      const n = byte(sub[2]);
      return [n === undefined ? undefined : `${base};5;${n}`, 1];
    }
    if (sub[1] === '2') {
      const rgb = sub.length >= 6 ? sub.slice(3, 6) : sub.slice(2, 5);
      const [r, g, b] = rgb.map(byte);
      const ok = r !== undefined && g !== undefined && b !== undefined;
      return [ok ? `${base};2;${r};${g};${b}` : undefined, 1];
    }
    return [undefined, 1];
  }
  if (parts[i + 1] === '5') {
    const n = byte(parts[i + 2]);
    return [n === undefined ? undefined : `${base};5;${n}`, 3];
  }
  if (parts[i + 1] === '2') {
    const [r, g, b] = [parts[i + 2], parts[i + 3], parts[i + 4]].map(byte);
    const ok = r !== undefined && g !== undefined && b !== undefined;
    return [ok ? `${base};2;${r};${g};${b}` : undefined, 5];
  }
  return [undefined, 1];
}

/** Applies the parameters of one `ESC[...m` sequence to a style. Unknown codes are ignored, as terminals do. */
export function applySgr(id: number, params: string): number {
  const cur = styleOf(id);
  let { fg, bg, flags } = cur;
  const parts = params.split(';');
  for (let i = 0; i < parts.length; ) {
    const p = parts[i] ?? '';
    const code = p.includes(':') ? (p.split(':')[0] ?? '') : p;
    const n = code === '' ? 0 : Number(code);
    if (n === 0 && /^0*$/.test(code)) {
      fg = ''; bg = ''; flags = 0;
    } else if (code === '4' && p.includes(':')) {
      flags = p.split(':')[1] === '0' ? flags & ~UNDERLINE : flags | UNDERLINE;
    } else if (SIMPLE[String(n)]) {
      const [set, clear] = SIMPLE[String(n)] ?? [0, 0];
      flags = (flags | set) & ~clear;
    } else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) {
      fg = String(n);
    } else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) {
      bg = String(n);
    } else if (n === 39) {
      fg = '';
    } else if (n === 49) {
      bg = '';
    } else if (n === 38 || n === 48 || n === 58) {
      const [color, used] = extendedColor(String(n), parts, i);
      if (color !== undefined && n === 38) fg = color;
      if (color !== undefined && n === 48) bg = color;
      i += used;
      continue;
    }
    i += 1;
  }
  return internStyle(fg, bg, flags);
}

function onCodes(flags: number): string[] {
  return ON.filter(([flag]) => flags & flag).map(([, code]) => code);
}

/** Shortest SGR sequence taking the terminal from style `from` (-1 = unknown) to `to`. */
export function sgrTransition(from: number, to: number): string {
  if (from === to) return '';
  if (to === DEFAULT_STYLE) return '\x1b[m';
  const t = styleOf(to);
  const reset = ['0', ...onCodes(t.flags)];
  if (t.fg) reset.push(t.fg);
  if (t.bg) reset.push(t.bg);
  let best = `\x1b[${reset.join(';')}m`;
  if (from < 0) return best;
  const f = styleOf(from);
  const codes: string[] = [];
  let on = t.flags & ~f.flags;
  if (f.flags & ~t.flags & (BOLD | DIM)) {
    codes.push('22');
    on |= t.flags & (BOLD | DIM);
  }
  for (const [flag, code] of OFF) if (f.flags & ~t.flags & flag) codes.push(code);
  codes.push(...onCodes(on));
  if (f.fg !== t.fg) codes.push(t.fg || '39');
  if (f.bg !== t.bg) codes.push(t.bg || '49');
  const incremental = `\x1b[${codes.join(';')}m`;
  if (incremental.length < best.length) best = incremental;
  return best;
}
