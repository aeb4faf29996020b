import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createParagraphTail } from '../../../components/markdown/paragraph-tail.js';
import * as rendering from '../../../components/markdown/render-markdown.js';
import { loadMarkdown, renderMarkdown } from '../../../components/markdown/render-markdown.js';
import { generateMarkdown } from '../../../src/providers/offline-markdown.js';

beforeAll(async () => {
  await loadMarkdown();
});

// Pieces a model writes into a paragraph, the Markdown ones among them: emphasis that closes (or
// stops closing) when a letter follows, code spans, links, autolinks that complete with a later
// '.', entities that complete with ';', escapes, HTML, and words.
const PIECES = [
  'word', 'words', ' ', ' ', ' ', ' and', 'x', '.', ',', '?', '!', "'", '"', '-', '2',
  '*', '**', '_', '__', '`', '~~', '[', ']', '(', ')', '<', '>', '\\', '&', 'amp', ';', '#', ':', '@',
  'www', 'www.', 'example', 'com', 'http', '//', '|', '\n', '  \n', '1.', '- ',
];

/** Every prefix of `text` (in steps of the given sizes), drawn as a stream would: the tail renderer against a whole render. */
function expectSameAsWholeRender(text: string, steps: readonly number[], width: number): void {
  const tail = createParagraphTail();
  let end = 0;
  for (let i = 0; end < text.length; i++) {
    end = Math.min(text.length, end + 1 + (steps[i % Math.max(1, steps.length)] ?? 0) % 7);
    const prefix = text.slice(0, end);
    expect(tail(prefix, width, 'dark'), JSON.stringify(prefix)).toEqual(renderMarkdown(prefix, width, 'dark'));
  }
}

describe('the unfinished paragraph of a streaming answer', () => {
  it('draws exactly what a whole render of the text so far draws, for any pieces in any steps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.constantFrom(20, 40, 118),
        fc.constantFrom('', 'A', 'So '),
        (pieces, steps, width, start) => expectSameAsWholeRender(start + pieces.join(''), steps, width),
      ),
      { numRuns: 300 },
    );
  });

  it('re-parses when the words that came are not plain or complete a construct begun before them', () => {
    // Each pair: the text so far, then the text with what came next.
    const pairs: [string, string][] = [
      ['A@1.', 'A@1.w'], // an email autolink completes
      ['see www', 'see www.example.com'], // an extended autolink completes
      ['so _a_', 'so _a_b'], // '_' between letters stops closing emphasis
      ['x \\', 'x \\.'], // an escaped period
      ['a &amp', 'a &amp; b'], // an entity completes
    ];
    for (const [before, after] of pairs) {
      const tail = createParagraphTail();
      tail(before, 40, 'dark');
      expect(tail(after, 40, 'dark'), after).toEqual(renderMarkdown(after, 40, 'dark'));
    }
  });

  it('matches on every paragraph of a long generated answer, 4 characters at a time', () => {
    const paragraphs = generateMarkdown(3000, 7).split('\n\n').filter((b) => /^[A-Za-z]/.test(b));
    expect(paragraphs.length).toBeGreaterThan(20);
    for (const p of paragraphs) expectSameAsWholeRender(p, [3], 118);
  });

  it('parses a paragraph growing by plain words once, not on every frame', () => {
    const parse = vi.spyOn(rendering, 'markdownSource');
    const tail = createParagraphTail();
    const text = 'Deltas **agent** when `code` again batches parsed changed splits parsed a edits runs in run again';
    for (let end = 40; end <= text.length; end += 4) tail(text.slice(0, end), 118, 'dark');
    // The first frame parses; the rest only add plain words (4-character steps can end inside
    // 'run' and such, which still continue a plain word).
    expect(parse.mock.calls.length).toBeLessThanOrEqual(2);
    parse.mockRestore();
  });
});
