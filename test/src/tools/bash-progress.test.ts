import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressBatcher } from '../../../src/tools/bash-progress.js';

describe('ProgressBatcher', () => {
  let now = 0;
  const pieces: string[] = [];
  const batcher = (maxChars = 1000): ProgressBatcher => new ProgressBatcher((t) => pieces.push(t), 50, maxChars, () => now);

  beforeEach(() => {
    vi.useFakeTimers();
    now = 1000;
    pieces.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  const advance = (ms: number): void => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  it('hands on the first line at once and gathers the next ones for the rest of the interval', () => {
    const b = batcher();
    b.line('one');
    expect(pieces).toEqual(['one\n']);
    b.line('two');
    b.line('three');
    expect(pieces).toEqual(['one\n']);
    advance(49);
    expect(pieces).toEqual(['one\n']);
    advance(1);
    expect(pieces).toEqual(['one\n', 'two\nthree\n']);
  });

  it('after a quiet spell the next line goes at once again', () => {
    const b = batcher();
    b.line('a');
    advance(200);
    b.line('b');
    expect(pieces).toEqual(['a\n', 'b\n']);
  });

  it('a piece that reaches the size cap goes without waiting', () => {
    const b = batcher(10);
    b.line('first');
    b.line('12345');
    b.line('6789');
    expect(pieces).toEqual(['first\n', '12345\n6789\n']);
  });

  it('flush hands on what waits and cancels the timer', () => {
    const b = batcher();
    b.line('a');
    b.line('b');
    b.flush();
    expect(pieces).toEqual(['a\n', 'b\n']);
    advance(100);
    b.flush();
    expect(pieces).toEqual(['a\n', 'b\n']);
  });
});
