/**
 * GNU sed scripts read the way sed compiles them, to find the commands that do more than edit the stream:
 * `e` and `s///e` run commands, `w`, `W` and `s///w` write files, `r` and `R` read files no argument names.
 * Anything the reader does not understand counts as risky: a prefix rule for sed must not vouch for a
 * script cairn could not read.
 */

// Commands that take no argument, and those that take an optional number.
const PLAIN = new Set(['=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', '{', '}']);
const NUMBERED = new Set(['l', 'L', 'q', 'Q']);

interface Reader {
  s: string;
  i: number;
  /** Whether `[...]` in a regular expression hides the delimiter (GNU does; the script is read both ways). */
  brackets: boolean;
}

function skipBlanks(r: Reader): void {
  while (r.i < r.s.length && (r.s[r.i] === ' ' || r.s[r.i] === '\t')) r.i += 1;
}

/** Where the bracket expression starting at `open` ends (`[]x]`, `[^]x]`, `[[:alpha:]/]`). */
function bracketEnd(s: string, open: number): number {
  let j = open + 1;
  if (s[j] === '^') j += 1;
  if (s[j] === ']') j += 1;
  while (j < s.length && s[j] !== ']') {
    const kind = s[j + 1] ?? '';
    if (s[j] === '[' && (kind === ':' || kind === '.' || kind === '=')) {
      const close = s.indexOf(`${kind}]`, j + 2);
      j = close < 0 ? s.length : close + 2;
    } else j += 1;
  }
  return j + 1;
}

/** Reads up to the closing delimiter; false when there is none. */
function delimited(r: Reader, delim: string, regex: boolean): boolean {
  const { s } = r;
  while (r.i < s.length) {
    const ch = s[r.i];
    if (ch === '\\') r.i += 2;
    else if (ch === delim) {
      r.i += 1;
      return true;
    } else if (regex && r.brackets && ch === '[') r.i = bracketEnd(s, r.i);
    else r.i += 1;
  }
  return false;
}

function address(r: Reader): boolean {
  const { s } = r;
  const ch = s[r.i] ?? '';
  if (/[0-9]/.test(ch)) {
    while (/[0-9]/.test(s[r.i] ?? '')) r.i += 1;
    if (s[r.i] === '~') {
      r.i += 1;
      while (/[0-9]/.test(s[r.i] ?? '')) r.i += 1;
    }
    return true;
  }
  if (ch === '$') {
    r.i += 1;
    return true;
  }
  if (ch === '/' || ch === '\\') {
    const delim = ch === '/' ? '/' : (s[r.i + 1] ?? '');
    r.i += ch === '/' ? 1 : 2;
    if (delim === '' || delim === '\n' || !delimited(r, delim, true)) return false;
    while (s[r.i] === 'I' || s[r.i] === 'M') r.i += 1;
    return true;
  }
  return true; // no address
}

/** The rest of the line (a file name, a label is shorter), where the next command starts. */
function toLineEnd(r: Reader): string {
  const end = r.s.indexOf('\n', r.i);
  const text = r.s.slice(r.i, end < 0 ? undefined : end);
  r.i = end < 0 ? r.s.length : end + 1;
  return text;
}

function substitution(r: Reader, command: string): string | undefined {
  const delim = r.s[r.i] ?? '';
  if (delim === '' || delim === '\n' || delim === '\\') return `the sed ${command} command has no delimiter cairn can read`;
  r.i += 1;
  if (!delimited(r, delim, command === 's') || !delimited(r, delim, false)) return `the sed ${command} command is not terminated`;
  if (command === 'y') return undefined;
  for (; r.i < r.s.length; r.i += 1) {
    const flag = r.s[r.i] ?? '';
    if (flag === 'e') return 'sed s///e runs the result as a command';
    if (flag === 'w') return 'sed s///w writes a file';
    if (!/[gpiImM0-9]/.test(flag)) break;
  }
  return /^($|[\s;}#])/.test(r.s.slice(r.i, r.i + 1)) ? undefined : `cairn cannot read the sed flags at ${JSON.stringify(r.s.slice(r.i, r.i + 8))}`;
}

function command(r: Reader): string | undefined {
  const cmd = r.s[r.i] ?? '';
  r.i += 1;
  if (PLAIN.has(cmd)) return undefined;
  if (NUMBERED.has(cmd)) {
    skipBlanks(r);
    while (/[0-9]/.test(r.s[r.i] ?? '')) r.i += 1;
    return undefined;
  }
  switch (cmd) {
    case 's':
    case 'y':
      return substitution(r, cmd);
    case 'e':
      return 'the sed e command runs a shell command';
    case 'w':
    case 'W':
      return `the sed ${cmd} command writes the file ${toLineEnd(r).trim()}`;
    case 'r':
    case 'R':
      return `the sed ${cmd} command reads the file ${toLineEnd(r).trim()}, which no argument names`;
    case 'a':
    case 'i':
    case 'c': {
      // Text to the end of the line; a text continued over lines is not read, it is risky.
      const text = toLineEnd(r);
      return text.endsWith('\\') ? `cairn does not read the text of sed's ${cmd} command over several lines` : undefined;
    }
    case ':':
    case 'b':
    case 't':
    case 'T':
    case 'v':
      // A label ends at the first blank or `;` (GNU): reading it short only reads more of the script as commands.
      skipBlanks(r);
      while (r.i < r.s.length && !/[\s;]/.test(r.s[r.i] ?? '')) r.i += 1;
      return undefined;
    case '#':
      toLineEnd(r);
      return undefined;
    default:
      return `cairn cannot read the sed command ${JSON.stringify(cmd)}`;
  }
}

function read(script: string, brackets: boolean): string | undefined {
  const r: Reader = { s: script, i: 0, brackets };
  while (r.i < script.length) {
    while (r.i < script.length && /[\s;]/.test(script[r.i] ?? '')) r.i += 1;
    if (r.i >= script.length) break;
    if (!address(r)) return 'cairn cannot read an address in the sed script';
    skipBlanks(r);
    if (script[r.i] === ',') {
      r.i += 1;
      skipBlanks(r);
      if (script[r.i] === '+' || script[r.i] === '~') r.i += 1;
      if (!address(r)) return 'cairn cannot read an address in the sed script';
    }
    skipBlanks(r);
    while (script[r.i] === '!') {
      r.i += 1;
      skipBlanks(r);
    }
    const why = command(r);
    if (why) return why;
  }
  return undefined;
}

/** Why this sed script does more than edit its input (runs a command, writes or reads a file), or undefined. */
export function sedScriptRisk(script: string): string | undefined {
  // Read with and without bracket expressions hiding the delimiter: a script safe one way and not the other asks.
  return read(script, true) ?? read(script, false);
}
