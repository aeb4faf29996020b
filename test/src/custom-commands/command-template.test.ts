import { describe, expect, it } from 'vitest';
import { fillTemplate, splitArguments } from '../../../src/custom-commands/command-template.js';

describe('filling a command body', () => {
  it('$ARGUMENTS is the text as typed; $1..$9 its words, quotes grouping them', () => {
    expect(fillTemplate('Fix issue $1 in $2 ($ARGUMENTS)', '42 "src/a b.ts"')).toBe('Fix issue 42 in src/a b.ts (42 "src/a b.ts")');
    expect(splitArguments(`one 'two three' "four \\"five\\"" six`)).toEqual(['one', 'two three', 'four "five"', 'six']);
  });

  it('a missing word is empty, $10 is not $1 followed by 0, and \\$ stays a dollar', () => {
    expect(fillTemplate('[$1][$2][$3]', 'a b')).toBe('[a][b][]');
    expect(fillTemplate('$10 and $1', 'x')).toBe('$10 and x');
    expect(fillTemplate('costs \\$1 each, $1', 'two')).toBe('costs $1 each, two');
  });

  it('arguments given to a body that names none are appended, never lost', () => {
    expect(fillTemplate('Review the code.', 'focus on auth')).toBe('Review the code.\n\nARGUMENTS: focus on auth');
    expect(fillTemplate('Review the code.', '')).toBe('Review the code.');
  });
});
