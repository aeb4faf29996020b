import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { isMarkdownLoaded, loadMarkdown, renderMarkdown } from '../../../components/markdown/render-markdown.js';

const strip = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');
const plain = (text: string, width = 60, theme: 'dark' | 'light' | 'none' = 'dark'): string[] =>
  renderMarkdown(text, width, theme).map(strip);

describe('before the markdown engine is loaded', () => {
  it('renders plain text wrapped to width', () => {
    expect(isMarkdownLoaded()).toBe(false);
    const lines = renderMarkdown('**not yet** parsed\n\nsecond paragraph that is long enough to wrap', 20, 'dark');
    expect(lines[0]).toBe('**not yet** parsed');
    expect(lines.every((l) => stringWidth(l) <= 20)).toBe(true);
  });
});

describe('renderMarkdown', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  it('renders headings without the # marks, styled', () => {
    const lines = renderMarkdown('# Title\n\n## Section', 40, 'dark');
    expect(lines.map(strip)).toEqual(['Title', '', 'Section']);
    expect(lines[0]).toContain('\x1b[1m');
  });

  it('renders bold and italic inside tight list items (marked-terminal #304/#371)', () => {
    const lines = renderMarkdown('- a **bold** item\n- an *italic* one\n- `code` too', 40, 'dark');
    expect(lines.map(strip)).toEqual(['  • a bold item', '  • an italic one', '  • code too']);
    expect(lines[0]).toContain('\x1b[1mbold\x1b[22m');
    expect(lines[1]).toContain('\x1b[3mitalic\x1b[23m');
  });

  it('numbers ordered lists and wraps items with a hanging indent', () => {
    const lines = plain('1. first item that is long enough to need wrapping here\n2. second', 30);
    expect(lines).toEqual(['  1. first item that is long', '     enough to need wrapping', '     here', '  2. second']);
  });

  it('renders code blocks verbatim behind a gutter, tabs expanded, no markdown inside', () => {
    const lines = plain('```ts\nconst a = **1**;\n\tif (a) {}\n```');
    expect(lines).toEqual(['│ const a = **1**;', '│     if (a) {}']);
  });

  it('prints links as text plus URL', () => {
    expect(plain('see [the docs](https://example.com/docs) and <https://x.dev>')).toEqual([
      'see the docs (https://example.com/docs) and https://x.dev',
    ]);
  });

  it('fits tables to the width, wrapping cells', () => {
    const md = '| name | description |\n| --- | --- |\n| cairn | an open coding agent for the terminal written in TypeScript |';
    const lines = plain(md, 40);
    expect(lines[0]).toMatch(/^┌─+┬─+┐$/);
    expect(lines.every((l) => stringWidth(l) === 40)).toBe(true);
    expect(lines.join('\n')).toContain('│ cairn │ an open coding agent for the');
  });

  it('keeps a narrow table at its natural width', () => {
    expect(plain('| a | b |\n|---|--:|\n| 1 | 22 |', 40)).toEqual([
      '┌───┬────┐',
      '│ a │  b │',
      '├───┼────┤',
      '│ 1 │ 22 │',
      '└───┴────┘',
    ]);
  });

  it("theme 'none' has no colour codes; dark and light colour differently", () => {
    const md = '# H\n\n`code` and [l](https://u.rl)';
    const none = renderMarkdown(md, 40, 'none').join('\n');
    expect(none).not.toMatch(/\x1b\[(?:3\d|9\d|4\d|10\d)m/);
    const dark = renderMarkdown(md, 40, 'dark').join('\n');
    const light = renderMarkdown(md, 40, 'light').join('\n');
    expect(dark).toMatch(/\x1b\[3\dm/);
    expect(dark).not.toBe(light);
  });

  it('strips terminal control sequences from the source', () => {
    const out = renderMarkdown('evil \x1b]0;title\x07 text\n\n```\n\x1b[2J\n```', 40, 'dark').join('\n');
    expect(out).not.toContain('\x1b]0');
    expect(out).not.toContain('\x1b[2J');
  });

  it('every line fits the width, CJK and emoji included, at many widths', () => {
    const md = [
      '# 标题 with a rather long heading that must wrap somewhere',
      '中文段落，包含很多很多很多很多很多很多很多很多很多很多很多很多的字符。 Emoji 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉 too.',
      '- 列表项 **粗体** 很长很长很长很长很长很长很长很长很长很长很长很长',
      '> 引用 quoted text that goes on and on and on and on and on',
      '```\n' + 'x'.repeat(120) + '\n' + '漢'.repeat(70) + '\n```',
      '| 名前 | 説明 |\n| --- | --- |\n| 値 | ' + '長い説明'.repeat(15) + ' |',
      'a_very_long_identifier_without_any_spaces_at_all_that_cannot_be_broken_at_a_word_boundary',
    ].join('\n\n');
    for (const width of [8, 13, 20, 33, 50, 80]) {
      const lines = renderMarkdown(md, width, 'dark');
      const over = lines.filter((l) => stringWidth(l) > width);
      expect(over, `width ${width}`).toEqual([]);
      expect(lines.at(-1)).not.toBe('');
    }
  });

  it('a wrapped styled line reopens its styles on each row', () => {
    const lines = renderMarkdown('> **bold words that keep going and going** after', 20, 'dark');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines.slice(1)) expect(l).toContain('\x1b[3m');
  });
});
