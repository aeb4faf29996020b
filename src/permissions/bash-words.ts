import type { SyntaxNode } from './bash-parser.js';

/** One shell word: its value with quotes removed where that is safe to know, and whether it is fully literal. */
export interface Word {
  value: string;
  literal: boolean;
}

function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
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
  return literal !== undefined ? { value: literal, literal: true } : { value: looseValue(node), literal: false };
}

/** The command name without its directory, so `/usr/bin/sudo` is judged as `sudo`. */
export function baseName(word: string): string {
  const i = word.lastIndexOf('/');
  return i >= 0 ? word.slice(i + 1) : word;
}
