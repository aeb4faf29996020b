import { Marked } from 'marked';
import type { Tokens } from 'marked';
import { markedTerminal } from 'marked-terminal';
import { stripTerminalControls } from '../../src/util/terminal-text.js';
import { fenceClosed, highlightCode, onLanguagesLoaded, prefetchLanguage } from './code-highlight.js';
import { GUTTER, expandTabs } from './fit-lines.js';
import { stripAnsi } from './styled-text.js';
import { createListRenderer } from './markdown-list.js';
import { drawTable } from './markdown-table.js';
import { markdownStyles } from './markdown-styles.js';
import type { MarkdownTheme } from './markdown-styles.js';

// The heavy half of markdown rendering: marked, marked-terminal and highlight.js with the common
// languages. Loaded by `loadMarkdown()`, before a resumed session's first frame, else just after it.
// marked-terminal's highlighter (cli-highlight: all of highlight.js) and emoji table are stubbed
// out where it is bundled (marked-terminal-stubs.ts): code blocks are drawn here, highlighted by
// code-highlight.ts. Lists are drawn here from marked's tokens (markdown-list.ts), as
// marked-terminal numbers them wrongly.

export type MarkdownEngine = {
  toText(markdown: string, width: number, theme: MarkdownTheme): string;
  /** Calls `listener` when text rendered before may now render differently (a language loaded). */
  onChange(listener: () => void): () => void;
};

// marked-terminal marks colons in code spans this way and undoes it in its own block renderers.
const COLON_MARK = /\*#COLON\|\*/g;

function unescapeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function createInstance(width: number, theme: MarkdownTheme): Marked {
  const s = markdownStyles(theme);
  const list = createListRenderer();
  const instance = new Marked();
  instance.use(
    markedTerminal({
      heading: s.heading,
      firstHeading: s.firstHeading,
      strong: s.strong,
      em: s.em,
      del: s.del,
      codespan: s.codespan,
      code: s.code,
      link: s.link,
      href: s.href,
      blockquote: s.blockquote,
      html: s.html,
      hr: (t) => t,
      listitem: (t) => t,
      paragraph: (t) => t,
      table: (t) => t,
      text: (t) => t,
      emoji: false,
      showSectionPrefix: false,
      reflowText: false,
      tab: 2,
      width,
    }),
    {
      renderer: {
        // marked-terminal ignores the inline tokens of tight list items (#304, #371), so
        // **bold** there came out literally; parse them like marked's own renderer does. Its
        // codespan marks colons (*#COLON|*) for the paragraph renderer to put back, which a tight
        // item's text never passes through: they are put back here.
        text(token: Tokens.Text | Tokens.Escape): string | false {
          if ('tokens' in token && token.tokens) return this.parser.parseInline(token.tokens).replace(COLON_MARK, ':');
          return false;
        },
        code(token: Tokens.Code): string {
          const body = expandTabs(stripTerminalControls(token.text)).replace(/\n+$/, '');
          const closed = fenceClosed(token.raw);
          if (!closed && theme !== 'none') prefetchLanguage(token.lang);
          const lines = highlightCode(body, closed ? token.lang : undefined, theme).map((l) => s.gutter(GUTTER) + s.code(l));
          return lines.join('\n') + '\n\n';
        },
        list(token: Tokens.List): string {
          return list(token, { parse: (tokens) => this.parser.parse(tokens) });
        },
        blockquote(token: Tokens.Blockquote): string {
          const inner = this.parser.parse(token.tokens).replace(/\n+$/, '');
          const lines = inner.split('\n').map((l) => s.gutter(GUTTER) + s.blockquote(l));
          return lines.join('\n') + '\n\n';
        },
        hr(): string {
          return s.gutter('─'.repeat(Math.max(1, width))) + '\n\n';
        },
        link(token: Tokens.Link): string {
          const text = this.parser.parseInline(token.tokens);
          const href = stripTerminalControls(token.href);
          // Printed, not an OSC 8 hyperlink: those confuse line diffing and width measuring.
          if (stripAnsi(text) === href || token.autolink) return s.href(href);
          return `${s.link(text)} (${s.href(href)})`;
        },
        table(token: Tokens.Table): string {
          const cell = (c: Tokens.TableCell): string =>
            unescapeEntities(this.parser.parseInline(c.tokens).replace(COLON_MARK, ':')).replace(/\n/g, ' ');
          const lines = drawTable(
            token.header.map(cell),
            token.rows.map((r) => r.map(cell)),
            token.align,
            width,
            s,
          );
          return lines.join('\n') + '\n\n';
        },
      },
    },
  );
  return instance;
}

export function createMarkdownEngine(): MarkdownEngine {
  const instances = new Map<string, Marked>();
  return {
    toText(markdown, width, theme) {
      const key = `${width}\u0000${theme}`;
      let instance = instances.get(key);
      if (!instance) {
        instance = createInstance(width, theme);
        instances.set(key, instance);
      }
      return instance.parse(markdown, { async: false });
    },
    onChange: onLanguagesLoaded,
  };
}
