import type { SyntaxNode } from './parser.js';
import { group } from '../../util/invariant.js';

/** One shell word: its value with quotes removed where that is safe to know, and whether it is fully literal. */
export interface Word {
  value: string;
  /** False when bash computes the word at run time: expansions, substitutions, globs, brace expansion. */
  literal: boolean;
  /** Set when the only thing computed is a glob or brace expansion over literal text (`/bin/r[m]`, `*.o`, `r{m,}`). */
  glob?: boolean;
}

function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** Bash's decoding of the body of `$'...'`, so `$'rm'` and `$'\x72m'` are both known to be `rm`. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body.charAt(i);
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body.charAt(i + 1);
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 1;
      continue;
    }
    const hex = /^(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3})/.exec(body.slice(i + 1));
    if (hex) {
      const digits = group(hex, 1);
      const code = /^[0-7]/.test(digits) ? parseInt(digits, 8) : parseInt(digits.slice(1), 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
      i += digits.length;
    } else if (next === 'c' && i + 2 < body.length) {
      out += String.fromCharCode(body.charCodeAt(i + 2) & 0x1f);
      i += 2;
    } else {
      out += `\\${next}`; // bash keeps an unknown escape as written
      i += 1;
    }
  }
  return out;
}

// Unquoted, unescaped glob characters or a brace expansion (`{a,b}`, `{1..3}`): bash rewrites the word.
// Plain scans, not regular expressions: words come from the model and may be long and hostile.
function hasGlobOrBrace(unquoted: string): boolean {
  const plain = unquoted.replace(/\\./gs, '__');
  if (plain.includes('*') || plain.includes('?')) return true;
  const open = plain.indexOf('[');
  if (open >= 0 && plain.lastIndexOf(']') > open) return true;
  let start = -1;
  for (let i = 0; i < plain.length; i++) {
    const ch = plain[i];
    if (ch === '{') start = i;
    else if (ch === '}' && start >= 0) {
      const inner = plain.slice(start + 1, i);
      if (inner.includes(',') || inner.includes('..')) return true;
      start = -1;
    }
  }
  return false;
}

/** The text of the unquoted `word` pieces of a node, for glob and brace checks. */
function unquotedText(node: SyntaxNode): string {
  if (node.type === 'word') return node.text;
  if (node.type !== 'concatenation') return '';
  // Pieces are joined with a marker-free separator so `{` and `,}` split over pieces still read as one brace.
  return node.namedChildren.map((c) => (c && c.type === 'word' ? c.text : c?.type === 'number' ? c.text : '\0')).join('');
}

/** The value of a node with no expansions in it, or undefined when it expands at run time. */
export function literalValue(node: SyntaxNode): string | undefined {
  switch (node.type) {
    case 'word':
      return unescapeWord(node.text);
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'ansi_c_string':
      return decodeAnsiC(node.text.slice(2, -1));
    case 'string':
      if (node.namedChildren.some((c) => !c || c.type !== 'string_content')) return undefined;
      return unescapeDoubleQuoted(node.text.slice(1, -1));
    case 'concatenation': {
      let out = '';
      for (const child of node.namedChildren) {
        const v = child ? literalValue(child) : undefined;
        if (v === undefined) return undefined;
        out += v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** Best-effort text of a word: quotes dropped, `${VAR}` shortened to `$VAR`, so checks see `"$HOME"` as `$HOME`. */
export function looseValue(node: SyntaxNode): string {
  const literal = literalValue(node);
  if (literal !== undefined) return literal;
  switch (node.type) {
    case 'string':
      return unescapeDoubleQuoted(node.text.slice(1, -1));
    case 'expansion': {
      const m = /^\$\{(\w+)\}$/.exec(node.text);
      return m ? `$${m[1]}` : node.text;
    }
    case 'concatenation':
      return node.namedChildren.map((c) => (c ? looseValue(c) : '')).join('');
    default:
      return node.text;
  }
}

export function wordOf(node: SyntaxNode): Word {
  const literal = literalValue(node);
  if (literal === undefined) return { value: looseValue(node), literal: false };
  if (hasGlobOrBrace(unquotedText(node))) return { value: literal, literal: false, glob: true };
  return { value: literal, literal: true };
}

/** A word made up by the analysis (a program name from a table, `rm` for `find -delete`). */
export function literalWord(value: string): Word {
  return { value, literal: true };
}

/** The command name without its directory, so `/usr/bin/sudo` is judged as `sudo`. */
export function baseName(word: string): string {
  const i = word.lastIndexOf('/');
  return i >= 0 ? word.slice(i + 1) : word;
}

export function joinWords(words: readonly Word[]): string {
  return words.map((w) => w.value).join(' ');
}

/**
 * The words as a person would type them for bash to read them the same: a literal word with
 * spaces, quotes or other special characters in single quotes; a computed word as written.
 */
export function shellWords(words: readonly Word[]): string {
  return words.map((w) => (!w.literal || /^[\w@%+=:,./-]+$/.test(w.value) ? w.value : `'${w.value.replace(/'/g, "'\\''")}'`)).join(' ');
}
