import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hangingIndent, stripAnsi, textWidth, wrapText } from '../../../components/theme/ansi.js';

describe('wrapText', () => {
  it('breaks lines between words, not inside them', () => {
    expect(wrapText('Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or see cairn --list-providers.', 30)).toEqual([
      'Set ANTHROPIC_API_KEY or',
      'OPENAI_API_KEY, or see cairn',
      '--list-providers.',
    ]);
  });

  it('hangs continuation rows under a list item’s text, a second column, or the indentation', () => {
    expect(wrapText('/team  Teammates: list, spawn <name> <type> <instructions>, stop <name>', 40)).toEqual([
      '/team  Teammates: list, spawn <name>',
      '       <type> <instructions>, stop',
      '       <name>',
    ]);
    expect(wrapText('  - a list item that is long enough to wrap', 20)).toEqual(['  - a list item that', '    is long enough', '    to wrap']);
    expect(wrapText('12. numbered item words here', 16)).toEqual(['12. numbered', '    item words', '    here']);
    expect(wrapText('    Enter   full view of the card (output, file, diff)', 40)).toEqual([
      '    Enter   full view of the card',
      '            (output, file, diff)',
    ]);
    expect(wrapText('    indented code that runs long', 20)).toEqual(['    indented code', '    that runs long']);
    // Never more than half the width: a wide first column wraps from the left edge.
    expect(wrapText('a-very-wide-first-column  then words', 20)).toEqual(['a-very-wide-first-co', 'lumn  then words']);
  });

  it('cuts a word only when it is longer than the line', () => {
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('see aaaaaaaaaa', 6)).toEqual(['see', 'aaaaaa', 'aaaa']);
    expect(wrapText('日本語テ', 4)).toEqual(['日本', '語テ']);
  });

  it('keeps a line that fits exactly as it was, spaces and all', () => {
    expect(wrapText('  a   b  \r\nline\ttwo', 20)).toEqual(['  a   b  ', 'line  two']);
  });

  it('carries a style over the break', () => {
    const rows = wrapText('\x1b[31mred words that wrap\x1b[0m', 10);
    expect(rows.map(stripAnsi)).toEqual(['red words', 'that wrap']);
    expect(rows[1]).toMatch(/^\x1b\[31m/);
  });

  it('never exceeds the width and loses no visible character (property)', () => {
    const word = fc.stringMatching(/^[a-z日本-]{1,14}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 30 }), (words, width) => {
        const text = words.join(' ');
        const rows = wrapText(text, width);
        for (const row of rows) expect(textWidth(row)).toBeLessThanOrEqual(Math.max(width, 2));
        expect(rows.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
        // A word that fits on a row is never split (continuation rows are narrower by the hang).
        const room = width - hangingIndent(text, width);
        const fitting = words.filter((w) => textWidth(w) <= room);
        for (const w of fitting) expect(rows.some((r) => r.split(' ').includes(w))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
