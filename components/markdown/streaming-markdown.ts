import { markdownVersion, renderMarkdown } from './render-markdown.js';
import type { MarkdownTheme } from './render-markdown.js';
import { createSplitScanner } from './safe-split.js';
import { createParagraphTail } from './paragraph-tail.js';
import { itemAt } from '../../src/util/invariant.js';

// A streaming message renders each finished block once per width and re-parses only the
// unfinished tail, so the cost of an update does not grow with the message.

export type RenderFn = (text: string, width: number, theme: MarkdownTheme) => string[];
/** Fits one rendered line to the width (applied once per rendered block, not once per frame). */
export type ClipFn = (line: string, width: number) => string;

export type MarkdownStream = {
  append(delta: string): void;
  /** All lines at the current width: cached finished blocks, then the re-rendered tail. */
  lines(): string[];
  setWidth(width: number): void;
  text(): string;
};

type Block = { text: string; rendered: Map<string, string[]> };

export function createMarkdownStream(
  width: number,
  theme: MarkdownTheme,
  options: { render?: RenderFn; clip?: ClipFn } = {},
): MarkdownStream {
  const { clip } = options;
  const draw = options.render ?? renderMarkdown;
  const fit = (lines: string[], w: number): string[] => (clip ? lines.map((l) => clip(l, w)) : lines);
  const render = (text: string, w: number, t: MarkdownTheme): string[] => fit(draw(text, w, t), w);
  // The unfinished block is drawn every frame: a paragraph growing by plain words is not parsed again.
  const drawTail = options.render ?? createParagraphTail();
  const scanner = createSplitScanner();
  const blocks: Block[] = [];
  // Only the unfinished part is kept as one string: appending to the whole answer and searching
  // it for line ends copied the whole answer (V8 flattens the concatenation) on every delta.
  let pending = '';
  let finishedEnd = 0;
  let currentWidth = width;
  // Finished blocks joined, extended as blocks finish; rebuilt when width or renderer changes.
  let joined: { key: string; blocks: number; lines: string[] } = { key: '', blocks: 0, lines: [] };
  let tail: { key: string; text: string; lines: string[] } | undefined;

  const cacheKey = (): string => `${currentWidth}:${markdownVersion()}`;

  function blockLines(block: Block, key: string): string[] {
    let lines = block.rendered.get(key);
    if (!lines) {
      // A block often finishes with exactly the text last rendered as the tail.
      lines = tail && tail.key === key && tail.text === block.text ? tail.lines : render(block.text, currentWidth, theme);
      block.rendered.set(key, lines);
    }
    return lines;
  }

  function finishedLines(key: string): string[] {
    if (joined.key !== key) joined = { key, blocks: 0, lines: [] };
    for (; joined.blocks < blocks.length; joined.blocks++) appendBlock(joined.lines, blockLines(itemAt(blocks, joined.blocks, 'markdown block'), key));
    return joined.lines;
  }

  return {
    append(delta) {
      if (delta === '') return;
      pending += delta;
      const split = scanner.feed(pending, finishedEnd);
      if (split > finishedEnd) {
        blocks.push({ text: pending.slice(0, split - finishedEnd), rendered: new Map() });
        pending = pending.slice(split - finishedEnd);
        finishedEnd = split;
      }
    },
    lines() {
      const key = cacheKey();
      const out = finishedLines(key).slice();
      const tailText = pending;
      if (!tail || tail.key !== key || tail.text !== tailText) {
        const source = isOpenTable(tailText) ? tailText.split('\n') : undefined;
        const lines = tailText === '' ? [] : fit(source ?? drawTail(tailText, currentWidth, theme), currentWidth);
        tail = { key, text: tailText, lines };
      }
      appendBlock(out, tail.lines);
      return out;
    },
    setWidth(w) {
      currentWidth = w;
    },
    text: () => blocks.map((b) => b.text).join('') + pending,
  };
}

/**
 * A table still arriving is shown as its source rows and drawn as a table once it is finished:
 * drawn on every update, each new row could widen a column and redraw the whole table.
 */
function isOpenTable(tail: string): boolean {
  return tail.split('\n').every((line) => /^ {0,3}\|/.test(line) || (line === '' && !tail.endsWith('\n\n')));
}

/** Blocks are separated by one blank line, as in a whole-text render. */
function appendBlock(into: string[], lines: readonly string[]): void {
  if (lines.length === 0) return;
  if (into.length > 0) into.push('');
  into.push(...lines);
}

const CACHE_LIMIT = 500;
const finished = new Map<string, { text: string; lines: string[] }>();

/** Lines of a finished transcript item, rendered once per (id, width, theme). */
export function renderCached(id: string, text: string, width: number, theme: MarkdownTheme): string[] {
  const key = `${id}\u0000${width}\u0000${theme}\u0000${markdownVersion()}`;
  const hit = finished.get(key);
  if (hit && hit.text === text) {
    // Re-inserting keeps the map in least-recently-used order.
    finished.delete(key);
    finished.set(key, hit);
    return hit.lines;
  }
  const lines = renderMarkdown(text, width, theme);
  finished.delete(key);
  finished.set(key, { text, lines });
  while (finished.size > CACHE_LIMIT) {
    const oldest = finished.keys().next().value;
    if (oldest === undefined) break;
    finished.delete(oldest);
  }
  return lines;
}
