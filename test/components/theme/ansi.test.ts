import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripAnsi, textWidth, wrapText } from '../../../components/theme/ansi.js';

describe('wrapText', () => {
  it('breaks lines between words, not inside them', () => {
    expect(wrapText('Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or see cairn --list-providers.', 30)).toEqual([
      'Set ANTHROPIC_API_KEY or',
      'OPENAI_API_KEY, or see cairn',
      '--list-providers.',
    ]);
    expect(wrapText('/team  Teammates: list, spawn <name> <type> <instructions>, stop <name>', 40)).toEqual([
      '/team  Teammates: list, spawn <name>',
      '<type> <instructions>, stop <name>',
    ]);
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
        // A word that fits on a line is never split across rows.
        const fitting = words.filter((w) => textWidth(w) <= width);
        for (const w of fitting) expect(rows.some((r) => r.split(' ').includes(w))).toBe(true);
      }),
    );
  });
});
