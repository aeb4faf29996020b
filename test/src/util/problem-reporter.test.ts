import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../src/util/error-message.js';
import { createProblemReporter } from '../../../src/util/problem-reporter.js';

describe('problems and error messages', () => {
  it('each distinct problem is reported once', () => {
    const out: string[] = [];
    const report = createProblemReporter((m) => out.push(m));
    report('a');
    report('b');
    report('a');
    expect(out).toEqual(['a', 'b']);
    expect(report.seen).toEqual(['a', 'b']);
  });

  it('errorMessage takes an Error\'s message and anything else as a string', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });
});
