import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../src/util/edit-distance.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('flaw', 'lawn')).toBe(2);
    expect(editDistance('Bash', 'bahs')).toBe(3);
  });

  it('is the other length when one side is empty, and 0 for equal text', () => {
    expect(editDistance('', 'read')).toBe(4);
    expect(editDistance('write', '')).toBe(5);
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('Edit', 'Edit')).toBe(0);
  });

  it('is symmetric', () => {
    for (const [a, b] of [['modle', 'model'], ['resum', 'resume'], ['x', 'clear']] as const) expect(editDistance(a, b)).toBe(editDistance(b, a));
  });
});
