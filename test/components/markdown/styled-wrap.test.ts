import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize, visibleWidth, wrapStyled, wrapUnits } from '../../../components/markdown/styled-text.js';

// wrapStyled groups runs of ASCII letters and of spaces into one unit each (fewer objects per
// frame for a streaming paragraph): the rows must be those of wrapping character by character.
const PIECES = ['a', 'bb', 'word', 'averyveryverylongword', ' ', '  ', '\x1b[1m', '\x1b[22m', '\x1b[33m', '\x1b[39m', '中', '😀', 'é', 'e\u0301', '-', '/', '.'];

describe('wrapStyled', () => {
  it('gives the rows of a character-by-character wrap, for any text and width', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), fc.integer({ min: 2, max: 30 }), (pieces, width) => {
        const line = pieces.join('');
        const rows = wrapStyled(line, width);
        expect(rows).toEqual(wrapUnits(tokenize(line), width));
        for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(width);
      }),
      { numRuns: 500 },
    );
  });
});
