import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkLines, ProgressBatcher } from '../../../src/tools/bash-progress.js';
import { LineSplitter, MAX_SPLIT_LINE_CHARS } from '../../../src/tools/output-buffer.js';

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

  it('hands on the first lines at once and gathers the next ones for the rest of the interval', () => {
    const b = batcher();
    b.add('one\n');
    expect(pieces).toEqual(['one\n']);
    b.add('two\n');
    b.add('three\nfour\n');
    expect(pieces).toEqual(['one\n']);
    advance(49);
    expect(pieces).toEqual(['one\n']);
    advance(1);
    expect(pieces).toEqual(['one\n', 'two\nthree\nfour\n']);
  });

  it('after a quiet spell the next lines go at once again', () => {
    const b = batcher();
    b.add('a\n');
    advance(200);
    b.add('b\n');
    expect(pieces).toEqual(['a\n', 'b\n']);
  });

  it('a piece that reaches the size cap goes without waiting', () => {
    const b = batcher(11);
    b.add('first\n');
    b.add('12345\n');
    b.add('6789\n');
    expect(pieces).toEqual(['first\n', '12345\n6789\n']);
  });

  it('lines that would take a piece past the cap go in the next piece', () => {
    const b = batcher(10);
    b.add('first\n');
    b.add('1234\n');
    b.add('56789\n');
    expect(pieces).toEqual(['first\n', '1234\n']);
    b.add('a long line of its own\n');
    expect(pieces).toEqual(['first\n', '1234\n', '56789\n', 'a long line of its own\n']);
  });

  it('flush hands on what waits and cancels the timer', () => {
    const b = batcher();
    b.add('a\n');
    b.add('b\n');
    b.flush();
    expect(pieces).toEqual(['a\n', 'b\n']);
    advance(100);
    b.flush();
    expect(pieces).toEqual(['a\n', 'b\n']);
  });
});

describe('ChunkLines', () => {
  const viaChunks = (chunks: string[]): string[] => {
    const out: string[] = [];
    const c = new ChunkLines((t) => out.push(t));
    for (const chunk of chunks) c.push(chunk);
    c.flush();
    return out;
  };
  const viaSplitter = (chunks: string[]): string => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(`${l}\n`));
    for (const chunk of chunks) s.push(chunk);
    s.flush();
    return lines.join('');
  };

  it('hands on a chunk’s whole lines as one string and holds the partial last line', () => {
    const out: string[] = [];
    const c = new ChunkLines((t) => out.push(t));
    c.push('ab');
    c.push('c\r\nde');
    c.push('f\n\ng');
    expect(out).toEqual(['abc\n', 'def\n\n']);
    c.flush();
    expect(out).toEqual(['abc\n', 'def\n\n', 'g\n']);
  });

  it('gives what LineSplitter gives, line for line, however the output is chunked', () => {
    const long = (extra: number): string => 'x'.repeat(MAX_SPLIT_LINE_CHARS + extra);
    const piece = fc.oneof(
      { weight: 8, arbitrary: fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n'), maxLength: 30 }) },
      { weight: 1, arbitrary: fc.integer({ min: -2, max: 3 }).map(long) },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 70_000 }), { maxLength: 8 }), (pieces, cuts) => {
        const all = pieces.join('');
        const chunks: string[] = [];
        let at = 0;
        for (const n of cuts) {
          chunks.push(all.slice(at, at + n));
          at += n;
        }
        chunks.push(all.slice(at));
        const out = viaChunks(chunks.filter((c) => c !== ''));
        expect(out.join('')).toBe(viaSplitter(chunks));
        expect(out.every((t) => t.endsWith('\n'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
