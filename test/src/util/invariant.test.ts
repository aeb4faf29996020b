import { describe, expect, it } from 'vitest';
import { group, itemAt } from '../../../src/util/invariant.js';

describe('itemAt', () => {
  it('returns the item at an index in range, including falsy ones', () => {
    expect(itemAt(['a', 'b'], 1, 'letter')).toBe('b');
    expect(itemAt([0, ''], 0, 'value')).toBe(0);
    expect(itemAt([0, ''], 1, 'value')).toBe('');
  });

  it('names what was missing when the index is out of range', () => {
    expect(() => itemAt(['a'], 3, 'transcript row')).toThrow('transcript row: no item at index 3 of 1');
    expect(() => itemAt([], -1, 'column width')).toThrow('column width: no item at index -1 of 0');
  });
});

describe('group', () => {
  it('returns a capture group that took part, even when it matched empty text', () => {
    const m = /^(\w+)=(.*)$/.exec('key=');
    expect(m && group(m, 1)).toBe('key');
    expect(m && group(m, 2)).toBe('');
  });

  it('names the match when the group did not take part', () => {
    const m = /^(a)|(b)$/.exec('b');
    expect(() => m && group(m, 1)).toThrow('capture group 1 is missing from the match "b"');
  });
});
