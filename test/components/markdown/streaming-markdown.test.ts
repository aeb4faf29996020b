import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdown, renderMarkdown } from '../../../components/markdown/render-markdown.js';
import { createSplitScanner, findLastSafeSplit } from '../../../components/markdown/safe-split.js';
import { createMarkdownStream, renderCached } from '../../../components/markdown/streaming-markdown.js';
import type { RenderFn } from '../../../components/markdown/streaming-markdown.js';
import { generateMarkdown } from '../../../src/providers/offline-markdown.js';

const SAMPLE = [
  '# Plan',
  'First I read the **files**, then:',
  '- tight item one\n- item *two*\n  - nested',
  '- after a blank line the list goes on\n\n- still the same list',
  '1. one\n\n2. two, loose',
  '```ts\nconst a = 1;\n\n\nconst b = 2;\n```',
  '    indented code\n\n    still indented code',
  '> a quote\n> more',
  '| a | b |\n| - | - |\n| 1 | 2 |',
  '---',
  'Final paragraph with a [link](https://example.com).',
].join('\n\n');

function streamLines(text: string, cuts: number[], width: number, render?: RenderFn): string[] {
  const s = createMarkdownStream(width, 'dark', render ? { render } : {});
  let prev = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    s.append(text.slice(prev, cut));
    s.lines(); // render mid-stream, as the UI does, so caches are exercised
    prev = cut;
  }
  s.append(text.slice(prev));
  return s.lines();
}

describe('findLastSafeSplit', () => {
  it('splits after a blank line before a plain block, not inside fences, lists or indented code', () => {
    expect(findLastSafeSplit('a\n\nb\n')).toBe(3);
    // A line still arriving after a blank line: a letter cannot continue the block before it,
    // a space, a digit or a list marker might.
    expect(findLastSafeSplit('a\n\nb')).toBe(3);
    expect(findLastSafeSplit('a\n\n1')).toBe(0);
    expect(findLastSafeSplit('a\n\n-')).toBe(0);
    expect(findLastSafeSplit('a\n\n ')).toBe(0);
    expect(findLastSafeSplit('a\n\n')).toBe(0);
    expect(findLastSafeSplit('```\na\n\nb')).toBe(0);
    expect(findLastSafeSplit('```\na\n\nb\n')).toBe(0);
    expect(findLastSafeSplit('- a\n\n- b\n')).toBe(0);
    expect(findLastSafeSplit('- a\n\n  more\n')).toBe(0);
    expect(findLastSafeSplit('```\na\n\n```\n\nafter\n')).toBe('```\na\n\n```\n\n'.length);
  });
});

describe('createSplitScanner fed only the unfinished part', () => {
  it('finds the same split after every delta as a scan of the whole text so far', () => {
    fc.assert(
      fc.property(fc.constantFrom(SAMPLE, generateMarkdown(300, 5)), fc.array(fc.nat(), { maxLength: 30 }), (text, raw) => {
        const cuts = [...new Set(raw.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
        const scanner = createSplitScanner();
        let base = 0;
        for (const end of [...cuts, text.length]) {
          const split = scanner.feed(text.slice(base, end), base);
          expect(split).toBe(findLastSafeSplit(text.slice(0, end)));
          base = split; // keep only the part after the last split, as the stream does
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses an offset past the last split (the text before it was not seen whole)', () => {
    const scanner = createSplitScanner();
    expect(() => scanner.feed('b\n', 2)).toThrow(/offset 2 passes the last split 0/);
  });
});

describe('createMarkdownStream', () => {
  it('text() is everything appended, in order', () => {
    const text = generateMarkdown(200, 2);
    const s = createMarkdownStream(60, 'dark');
    for (let i = 0; i < text.length; i += 7) s.append(text.slice(i, i + 7));
    expect(s.text()).toBe(text);
  });

  beforeAll(async () => {
    await loadMarkdown();
  });

  it('appending deltas gives the same lines as rendering the whole text (random splits)', () => {
    const texts = [SAMPLE, generateMarkdown(400, 7)];
    fc.assert(
      fc.property(
        fc.constantFrom(...texts),
        fc.array(fc.nat(), { maxLength: 25 }),
        fc.constantFrom(24, 40, 80),
        (text, raw, width) => {
          const cuts = raw.map((n) => n % (text.length + 1));
          expect(streamLines(text, cuts, width)).toEqual(renderMarkdown(text, width, 'dark'));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('every 4-character step of a long answer matches a whole render at the end', () => {
    const text = generateMarkdown(1500, 3);
    const cuts = Array.from({ length: Math.floor(text.length / 4) }, (_, i) => i * 4);
    expect(streamLines(text, cuts, 70)).toEqual(renderMarkdown(text, 70, 'dark'));
  });

  it('renders finished blocks once and re-parses only the tail', () => {
    const parsed: string[] = [];
    const counting: RenderFn = (text, width, theme) => {
      parsed.push(text);
      return renderMarkdown(text, width, theme);
    };
    const text = generateMarkdown(600, 11);
    const s = createMarkdownStream(60, 'dark', { render: counting });
    for (let i = 0; i < text.length; i += 4) {
      s.append(text.slice(i, i + 4));
      s.lines();
    }
    const parsedChars = parsed.reduce((n, p) => n + p.length, 0);
    let wholeReparseChars = 0;
    for (let i = 4; i < text.length + 4; i += 4) wholeReparseChars += Math.min(i, text.length);
    expect(parsedChars).toBeLessThan(wholeReparseChars / 5);
    // No parse ever covers more than a couple of blocks of the message.
    expect(Math.max(...parsed.map((p) => p.length))).toBeLessThan(text.length / 4);
    const before = parsed.length;
    s.lines();
    expect(parsed.length).toBe(before); // nothing changed: nothing parsed
    s.setWidth(40);
    const afterResize = s.lines();
    expect(afterResize).toEqual(renderMarkdown(text, 40, 'dark'));
    expect(parsed.length - before).toBeGreaterThan(5); // every block at the new width
    const beforeBack = parsed.length;
    s.setWidth(60);
    expect(s.lines()).toEqual(renderMarkdown(text, 60, 'dark'));
    expect(parsed.length - beforeBack).toBe(1); // blocks at width 60 were cached: only the tail
  });

  it('a finished block is never parsed again while the message grows', () => {
    const seen = new Map<string, number>();
    const counting: RenderFn = (text, width, theme) => {
      seen.set(text, (seen.get(text) ?? 0) + 1);
      return renderMarkdown(text, width, theme);
    };
    const s = createMarkdownStream(50, 'dark', { render: counting });
    s.append('Intro paragraph.\n\nSecond one.\n\nThird');
    s.lines();
    // 'Third' starts with a letter after a blank line: what came before is finished.
    expect(seen.get('Intro paragraph.\n\nSecond one.\n\n')).toBe(1);
    for (const delta of [' one', '.\n', '\n- a', ' list\n', '- more\n\nEnd.']) {
      s.append(delta);
      s.lines();
    }
    expect(seen.get('Intro paragraph.\n\nSecond one.\n\n')).toBe(1);
    expect(seen.get('Third one.\n\n- a list\n- more\n\n')).toBe(1);
    expect(s.lines().map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''))).toEqual([
      'Intro paragraph.', '', 'Second one.', '', 'Third one.', '', '  • a list', '  • more', '', 'End.',
    ]);
  });
});

describe('renderCached', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  it('returns the same lines object for the same (id, width, theme) and re-renders on change', () => {
    const a = renderCached('msg-1', '**hi**', 40, 'dark');
    expect(renderCached('msg-1', '**hi**', 40, 'dark')).toBe(a);
    expect(renderCached('msg-1', '**hi**', 30, 'dark')).not.toBe(a);
    expect(renderCached('msg-1', '**hi** there', 40, 'dark').map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''))).toEqual(['hi there']);
  });
  it('shows a table still arriving as its source rows, and draws it once text follows it', () => {
    const s = createMarkdownStream(60, 'dark');
    s.append('Intro.\n\n| name | value |\n| - | - |\n| a | 1 |\n| bb');
    expect(s.lines().slice(-4)).toEqual(['| name | value |', '| - | - |', '| a | 1 |', '| bb']);
    s.append(' | 22 |\n\nAfter the table.');
    const drawn = s.lines().join('\n');
    expect(drawn).toContain('┌');
    expect(drawn).not.toContain('| name');
    expect(drawn).toContain('After the table.');
  });
});
