import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../../src/tools/output-buffer.js';

describe('LineSplitter on a command that never prints a newline', () => {
  it('shows the start of a 256 MB line and keeps going, instead of re-splitting an ever longer string', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((l) => lines.push(l));
    const chunk = 'a'.repeat(64 * 1024);
    for (let i = 0; i < 4096; i++) splitter.push(chunk);
    splitter.push('\nnext line\r\ntail');
    splitter.flush();
    expect(lines).toHaveLength(3);
    expect(lines[0]!.startsWith('a'.repeat(1000))).toBe(true);
    expect(lines[0]!.length).toBeLessThan(70 * 1024);
    expect(lines[0]).toContain('[line cut]');
    expect(lines.slice(1)).toEqual(['next line', 'tail']);
  });
});
