/**
 * Translates the grep tool's JavaScript regular expression (no `u` flag, matched against one line) into a
 * ripgrep (Rust regex) pattern that matches exactly the same lines, or says it cannot. Only constructs whose
 * meaning is the same in both engines once spelled out are taken: `\d`, `\w`, `\s`, `\b` and `.` become
 * JavaScript's ASCII or explicit classes, and case-blind matching becomes explicit `[aA]` classes (JavaScript
 * folds case by toUpperCase without Unicode folding; Rust's `(?i)` would also match `ſ` for `s`). Anything
 * else (backreferences, lookaround, `\c`, octal escapes, letters escaped for no reason, case-blind non-ASCII
 * letters, astral characters) returns undefined and the search runs in JavaScript.
 */

/** What JavaScript's `\s` matches (WhiteSpace and LineTerminator). */
const JS_SPACE = '\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
const JS_WORD = '0-9A-Za-z_';
const JS_DIGIT = '0-9';

class Untranslatable extends Error {}

function fail(): never {
  throw new Untranslatable();
}

/** A code point as a Rust class or literal element. */
function hex(code: number): string {
  return `\\x{${code.toString(16).toUpperCase()}}`;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether case-blind matching treats this character as only itself. */
function caseless(code: number): boolean {
  const ch = String.fromCharCode(code);
  return ch.toUpperCase() === ch && ch.toLowerCase() === ch;
}

type Range = [number, number];

interface Parsed {
  /** The class body in Rust syntax (without the brackets). */
  body: string;
}

class Translator {
  private i = 0;

  constructor(
    private readonly src: string,
    private readonly ignoreCase: boolean,
  ) {}

  run(): string {
    const out = this.disjunction();
    if (this.i < this.src.length) fail();
    return out;
  }

  private peek(offset = 0): string {
    return this.src.charAt(this.i + offset);
  }

  private disjunction(): string {
    const parts = [this.alternative()];
    while (this.peek() === '|') {
      this.i++;
      parts.push(this.alternative());
    }
    return parts.join('|');
  }

  private alternative(): string {
    let out = '';
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.term();
      out += atom;
    }
    return out;
  }

  private term(): string {
    const ch = this.peek();
    if (ch === '^' || ch === '$') {
      this.i++;
      if (this.quantifierAhead()) fail();
      return ch;
    }
    if (ch === '\\' && (this.peek(1) === 'b' || this.peek(1) === 'B')) {
      this.i += 2;
      if (this.quantifierAhead()) fail();
      return `(?-u:\\${this.src.charAt(this.i - 1)})`;
    }
    const atom = this.atom();
    return atom + this.quantifier();
  }

  private quantifierAhead(): boolean {
    const ch = this.peek();
    return ch === '*' || ch === '+' || ch === '?' || (ch === '{' && this.braceQuantifier() !== undefined);
  }

  /** `{n}`, `{n,}` or `{n,m}` at the cursor, as text; undefined when the brace is a literal (Annex B). */
  private braceQuantifier(): string | undefined {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
    return m?.[0];
  }

  private quantifier(): string {
    let q: string;
    const ch = this.peek();
    if (ch === '*' || ch === '+' || ch === '?') {
      q = ch;
      this.i++;
    } else if (ch === '{') {
      const brace = this.braceQuantifier();
      if (brace === undefined) return '';
      q = brace;
      this.i += brace.length;
    } else return '';
    if (this.peek() === '?') {
      q += '?';
      this.i++;
    }
    if (this.quantifierAhead()) fail();
    return q;
  }

  private atom(): string {
    const ch = this.peek();
    if (ch === '(') return this.group();
    if (ch === '[') return this.charClass();
    if (ch === '.') {
      this.i++;
      return '[^\\n\\r\\x{2028}\\x{2029}]';
    }
    if (ch === '\\') return this.atomEscape();
    if (ch === '*' || ch === '+' || ch === '?' || ch === ')' || ch === ']') fail();
    if (ch === '{') {
      if (this.braceQuantifier() !== undefined) fail();
      this.i++;
      return '\\{';
    }
    if (ch === '}') {
      this.i++;
      return '\\}';
    }
    return this.literal(this.readCodeUnit());
  }

  private readCodeUnit(): number {
    const code = this.src.charCodeAt(this.i);
    this.i++;
    if (code >= 0xd800 && code <= 0xdfff) fail(); // astral characters: JavaScript matches them as two units
    return code;
  }

  private group(): string {
    this.i++;
    if (this.peek() === '?') {
      if (this.peek(1) === ':') this.i += 2;
      else if (this.peek(1) === '<' && /^[A-Za-z_$]/.test(this.peek(2))) {
        const close = this.src.indexOf('>', this.i);
        if (close === -1) fail();
        this.i = close + 1;
      } else fail(); // lookaround
    }
    const inner = this.disjunction();
    if (this.peek() !== ')') fail();
    this.i++;
    return `(?:${inner})`;
  }

  /** A literal code unit, spelled so Rust reads it as itself (both cases when matching case-blind). */
  private literal(code: number): string {
    if (this.ignoreCase && isAsciiLetter(code)) {
      const lower = code | 0x20;
      return `[${String.fromCharCode(lower)}${String.fromCharCode(lower - 32)}]`;
    }
    if (this.ignoreCase && !caseless(code)) fail();
    return code < 0x20 || code > 0x7e || !/[0-9A-Za-z_ ]/.test(String.fromCharCode(code)) ? hex(code) : String.fromCharCode(code);
  }

  private atomEscape(): string {
    const e = this.peek(1);
    switch (e) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S':
        this.i += 2;
        return `[${e === e.toUpperCase() ? '^' : ''}${this.classEscapeBody(e.toLowerCase())}]`;
      default: {
        const code = this.characterEscape();
        return this.literal(code);
      }
    }
  }

  private classEscapeBody(e: string): string {
    return e === 'd' ? JS_DIGIT : e === 'w' ? JS_WORD : JS_SPACE;
  }

  /** A `\` escape standing for one character (the cursor is on the `\`), as its code. */
  private characterEscape(inClass = false): number {
    const e = this.peek(1);
    this.i += 2;
    switch (e) {
      case 't':
        return 9;
      case 'n':
        return 10;
      case 'v':
        return 11;
      case 'f':
        return 12;
      case 'r':
        return 13;
      case '0':
        if (/[0-9]/.test(this.peek())) fail(); // octal
        return 0;
      case 'b':
        if (!inClass) fail();
        return 8;
      case 'x': {
        const m = /^[0-9A-Fa-f]{2}/.exec(this.src.slice(this.i));
        if (!m) fail();
        this.i += 2;
        return parseInt(m[0], 16);
      }
      case 'u': {
        const m = /^[0-9A-Fa-f]{4}/.exec(this.src.slice(this.i));
        if (!m) fail();
        this.i += 4;
        const code = parseInt(m[0], 16);
        if (code >= 0xd800 && code <= 0xdfff) fail();
        return code;
      }
      case '':
        return fail();
      default:
        // `\.` `\/` `\-` and the like: the character itself. Letters and digits mean something else or are Annex B oddities.
        if (/[0-9A-Za-z]/.test(e)) fail();
        this.i--;
        return this.readCodeUnit();
    }
  }

  private charClass(): string {
    this.i++;
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.i++;
    }
    const ranges: Range[] = [];
    const sets: string[] = [];
    while (this.peek() !== ']') {
      if (this.i >= this.src.length) fail();
      const lo = this.classAtom(sets);
      if (lo === undefined) continue;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.i++;
        const hi = this.classAtom(sets);
        if (hi === undefined || hi < lo) fail(); // `[\d-z]` (Annex B union) or a reversed range
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    this.i++;
    if (ranges.length === 0 && sets.length === 0) fail(); // `[]` and `[^]`
    return `[${negated ? '^' : ''}${this.classBody(ranges).body}${sets.join('')}]`;
  }

  /** One class member: its code, or undefined for `\d`-like escapes (added to sets). */
  private classAtom(sets: string[]): number | undefined {
    const ch = this.peek();
    if (ch === '\\') {
      const e = this.peek(1);
      if ('dDwWsS'.includes(e) && e !== '') {
        this.i += 2;
        const body = this.classEscapeBody(e.toLowerCase());
        // A negated escape inside a class: Rust nests classes.
        sets.push(e === e.toUpperCase() ? `[^${body}]` : body);
        return undefined;
      }
      return this.characterEscape(true);
    }
    if (ch === '[' && this.peek(1) === ':') fail(); // Rust would read a POSIX class
    return this.readCodeUnit();
  }

  private classBody(ranges: Range[]): Parsed {
    const all: Range[] = [...ranges];
    if (this.ignoreCase) {
      for (const [lo, hi] of ranges) {
        for (let c = lo; c <= hi; c++) {
          if (c > 0x7f) {
            if (!caseless(c)) fail();
            continue;
          }
          if (isAsciiLetter(c)) all.push([c ^ 0x20, c ^ 0x20]);
        }
      }
    }
    return { body: all.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('') };
  }
}

/** The Rust pattern that matches the same lines as `new RegExp(source, ignoreCase ? 'i' : '')`, or undefined. */
export function jsRegexToRust(source: string, ignoreCase: boolean): string | undefined {
  try {
    return new Translator(source, ignoreCase).run();
  } catch (err) {
    if (err instanceof Untranslatable) return undefined;
    throw err;
  }
}
