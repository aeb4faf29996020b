import type { Token, Tokens } from 'marked';

// Lists drawn from marked's tokens. marked-terminal numbers ordered lists by counting marker-like
// lines in the rendered text, so a nested list's items took numbers from their parent ("1. 2. •
// 3. 4.") and a list's start number was ignored. Here numbering follows CommonMark: an ordered
// list counts up from its first item's number (default 1) whatever its later items say, and a
// nested list is laid out under its item's text, numbered on its own.

/** Bullets by depth, like most renderers: •, then ◦, then ▪, then round again. */
export const BULLETS = ['•', '◦', '▪'] as const;
const TOP_INDENT = '  ';

export interface ListContext {
  /** Renders block tokens (nested lists come back through `renderList`). */
  parse(tokens: Token[]): string;
}

/**
 * A list renderer for one marked instance. Nested lists reach it again through `ctx.parse`
 * while their parent is being drawn (synchronously), which is how it knows their depth.
 */
export function createListRenderer(): (token: Tokens.List, ctx: ListContext) => string {
  let depth = 0;
  return (token, ctx) => {
    const ordered = token.ordered;
    const start = typeof token.start === 'number' ? token.start : 1;
    const delimiter = ordered && /^\s*\d+\)/.test(token.items[0]?.raw ?? '') ? ')' : '.';
    const numberWidth = String(start + token.items.length - 1).length;
    const bullet = BULLETS[depth % BULLETS.length] ?? BULLETS[0];
    const level = depth;
    depth++;
    try {
      const items = token.items.map((item, i) => {
        const marker = ordered ? `${String(start + i).padStart(numberWidth)}${delimiter}` : bullet;
        const lines = itemBody(item, ctx).split('\n');
        const hang = ' '.repeat(marker.length + 1);
        return lines.map((line, j) => (j === 0 ? `${marker} ${line}` : line === '' ? '' : hang + line)).join('\n');
      });
      const body = items.join(token.loose ? '\n\n' : '\n');
      const indented = level === 0 ? body.split('\n').map((l) => (l === '' ? l : TOP_INDENT + l)).join('\n') : body;
      return `${indented}\n\n`;
    } finally {
      depth = level;
    }
  };
}

function itemBody(item: Tokens.ListItem, ctx: ListContext): string {
  let body = '';
  for (const t of item.tokens) {
    if (t.type === 'checkbox') continue;
    const out = ctx.parse([t]).replace(/^\n+|\n+$/g, '');
    if (out === '') continue;
    // Paragraphs of a loose item are apart; a nested list sits right under its text.
    if (body !== '') body += item.loose && t.type !== 'list' ? '\n\n' : '\n';
    body += out;
  }
  const box = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
  return box + body;
}
