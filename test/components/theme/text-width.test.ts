// The characters measured without string-width must measure as string-width measures them, and
// split into graphemes as Intl.Segmenter splits them, or the first frame would be drawn wrong.
import stringWidthLib from 'string-width';
import { describe, expect, it } from 'vitest';
import { graphemes, SIMPLE_TEXT, stringWidth } from '../../../components/theme/text-width.js';

function simpleCharacters(): string[] {
  const out: string[] = [];
  for (let cp = 0; cp <= 0xffff; cp++) {
    const ch = String.fromCharCode(cp);
    if (SIMPLE_TEXT.test(ch)) out.push(ch);
  }
  return out;
}

describe('text measured before string-width loads', () => {
  const simple = simpleCharacters();
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

  it('covers what the first frame draws: ASCII, box drawing, the status and header punctuation', () => {
    expect(SIMPLE_TEXT.test('╭─ cairn · claude-opus (anthropic) ─╮ │ > Ask cairn… ╰──╯ ⏵⏵ ← → ↑ ↓ — · ▌ █ ░ ▱▰ ⚠ ✓ ✗ ⎿ ⠋')).toBe(true);
    // Emoji drawn two columns wide are not: they wait for string-width.
    for (const wide of ['⏰', '⌛', '◽', '⚡', '✅']) expect(SIMPLE_TEXT.test(wide), wide).toBe(false);
    expect(simple.length).toBeGreaterThan(1000);
  });

  it('every such character is one column, as string-width says', () => {
    const wrong = simple.filter((ch) => stringWidthLib(ch) !== 1);
    expect(wrong.map((ch) => ch.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it('every such character is its own grapheme beside letters, marks and each other', () => {
    const joined = simple.filter((ch) => [...segmenter.segment(`a${ch}a`)].length !== 3 || [...segmenter.segment(`${ch}${ch}`)].length !== 2);
    expect(joined.map((ch) => ch.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it('measures and splits text as string-width and Intl.Segmenter do, inside and outside the set', () => {
    for (const text of ['plain ascii', '╭────╮ ·… é ß', '日本語のフォルダ', 'e\u0301 combining', '👍🏽 ok', '🇫🇷', '\u00ad soft hyphen', 'a\u200bb']) {
      expect(stringWidth(text), text).toBe(stringWidthLib(text));
      expect([...graphemes(text)].map((g) => [g.segment, g.index]), text).toEqual([...segmenter.segment(text)].map((g) => [g.segment, g.index]));
    }
  });
});
