import os from 'node:os';
import path from 'node:path';
import { Lexer, type Token } from 'marked';

/** Claude Code follows `@path` imports this many hops from the file it started at. */
export const MAX_IMPORT_DEPTH = 4;

// `@path` at the start of a line or after whitespace; `\ ` escapes a space in the path.
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

/**
 * The `@path` imports of a Markdown text, in order, as written (`./a.md`, `~/x.md`, `/abs`,
 * `docs/b.md`). Inside code spans, code blocks and HTML (comments) they are text, not imports.
 * Trailing sentence punctuation is not part of the path.
 */
export function findImports(markdown: string): string[] {
  const out: string[] = [];
  // A token with no code inside is scanned as written (its raw text): GFM reads `~/a ~/b` as
  // strikethrough, and the `~` must stay part of the path.
  const visit = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      if (isCode(token)) continue;
      const children = childrenOf(token);
      if (children.some(containsCode)) visit(children);
      else scan(token.raw, out);
    }
  };
  visit(new Lexer({ gfm: true }).lex(markdown));
  return out;
}

function isCode(token: Token): boolean {
  return token.type === 'code' || token.type === 'codespan' || token.type === 'html';
}

function childrenOf(token: Token): Token[] {
  return (token as { tokens?: Token[] }).tokens ?? (token as { items?: Token[] }).items ?? [];
}

function containsCode(token: Token): boolean {
  return isCode(token) || childrenOf(token).some(containsCode);
}

function scan(text: string, out: string[]): void {
  for (const match of text.matchAll(IMPORT)) {
    const spec = (match[1] ?? '').replace(/\\ /g, ' ').replace(/[.,;:!?)\]]+$/, '');
    if (spec === '' || spec === '/' || spec.startsWith('@')) continue;
    out.push(spec);
  }
}

/** Whether a spec that names no file is worth a word: it looks like a path, not a handle (`@alice`). */
export function looksLikePath(spec: string): boolean {
  return spec.includes('/') || /\.[A-Za-z0-9]+$/.test(spec);
}

/** The absolute path an import names: relative to the importing file's folder, `~/` from home, or absolute. */
export function resolveImport(spec: string, fromFile: string, home = os.homedir()): string {
  if (spec === '~' || spec.startsWith('~/')) return path.join(home, spec.slice(1));
  return path.resolve(path.dirname(fromFile), spec.split('#')[0] ?? spec);
}

/**
 * The text without its block-level HTML comments (`<!-- maintainer notes -->` on lines of their
 * own), which Claude Code strips before a CLAUDE.md reaches the model. A comment inside a code
 * block or a code span is text, and stays.
 */
export function stripHtmlComments(markdown: string): string {
  if (!markdown.includes('<!--')) return markdown;
  return new Lexer({ gfm: true })
    .lex(markdown)
    .map((token) => {
      if (token.type !== 'html') return token.raw;
      const kept = token.raw.replace(/<!--[\s\S]*?-->/g, '');
      return kept.trim() === '' ? '' : kept;
    })
    .join('');
}
