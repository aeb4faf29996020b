import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadTailBuffer, LineSplitter } from '../../../src/tools/output-buffer.js';

describe('HeadTailBuffer', () => {
  it('keeps everything under the cap and head + marker + tail over it', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 50 }), { maxLength: 60 }), fc.integer({ min: 2, max: 200 }), (chunks, cap) => {
        const buf = new HeadTailBuffer(cap);
        for (const c of chunks) buf.append(c);
        const all = chunks.join('');
        if (all.length <= cap) {
          expect(buf.toString()).toBe(all);
        } else {
          const half = Math.floor(cap / 2);
          const tail = all.slice(all.length - (cap - half));
          expect(buf.toString()).toBe(`${all.slice(0, half)}\n... ${all.length - cap} chars omitted (to see them, redirect the output to a file and read it with read_file) ...\n${tail}`);
        }
      }),
    );
  });
});

describe('LineSplitter', () => {
  it('emits whole lines across chunk boundaries and flushes the last partial line', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    s.push('ab');
    s.push('c\r\nde');
    s.push('f\n\ng');
    expect(lines).toEqual(['abc', 'def', '']);
    s.flush();
    expect(lines).toEqual(['abc', 'def', '', 'g']);
  });
});
