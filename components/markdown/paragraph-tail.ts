import { fitRendered, markdownSource, markdownVersion, renderMarkdown } from './render-markdown.js';
import type { MarkdownTheme } from './render-markdown.js';

// The unfinished block of a streaming answer is drawn again on every frame. When it is a paragraph
// and all that arrived since it was last parsed is plain words, the parser's output is the last
// output with those words appended: only the wrapping is done again. Parsing the paragraph every
// frame was most of a streaming frame's cost (a 400-character paragraph, about 30 times a second).

/**
 * Text that cannot start, end or change any Markdown construct when appended to a one-line
 * paragraph: no emphasis, code, link, autolink, entity, escape, HTML or line break characters.
 */
const PLAIN = /^[A-Za-z0-9 ,.?!'"-]*$/;

/** A one-line paragraph: starts with a letter (no list, heading, quote, fence, table or HTML). */
const ONE_LINE_PARAGRAPH = /^[A-Za-z][^\n]*$/;

/** A word with these may become an autolink (`www.`, `user@host.tld`, `scheme:`) as letters follow. */
const LINKISH = /www\.|[@:]/i;

export type TailRenderer = (text: string, width: number, theme: MarkdownTheme) => string[];

/** A renderer for one stream's unfinished block: renderMarkdown's lines, parsing only when needed. */
export function createParagraphTail(): TailRenderer {
  let base: { text: string; source: string; width: number; theme: MarkdownTheme; version: number } | undefined;
  return (text, width, theme) => {
    const version = markdownVersion();
    if (base && base.width === width && base.theme === theme && base.version === version && text.startsWith(base.text)) {
      const added = text.slice(base.text.length);
      if (appendsPlainly(base.text, added)) return fitRendered(base.source + added, width, theme);
    }
    const raw = ONE_LINE_PARAGRAPH.test(text) ? markdownSource(text, width, theme) : undefined;
    if (raw === undefined) {
      base = undefined;
      return renderMarkdown(text, width, theme);
    }
    // The parser ends a paragraph with a blank line: appended words go before it.
    base = raw.endsWith('\n\n') ? { text, source: raw.slice(0, -2), width, theme, version } : undefined;
    return fitRendered(raw, width, theme);
  };
}

/**
 * Appending `added` to the paragraph `before` changes nothing already parsed: whether a run of
 * `*`, `_` or backticks opens or closes depends on the characters on both sides of it, so `before`
 * must end in a plain character too (the text already seen was parsed as a one-line paragraph).
 */
function appendsPlainly(before: string, added: string): boolean {
  if (!PLAIN.test(added) || !PLAIN.test(before.slice(-1))) return false;
  // The word the new text continues: an autolink forms only from a whole word.
  const word = before.slice(before.lastIndexOf(' ') + 1) + added;
  return !LINKISH.test(word);
}
