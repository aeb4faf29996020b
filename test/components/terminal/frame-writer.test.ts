import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { createByteCounter } from '../../../components/terminal/byte-counter.js';
import { createFrameWriter } from '../../../components/terminal/frame-writer.js';
import { createVirtualTerminal, renderReference } from './xterm-harness.js';

const text = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'x', 'Z', '0', ' ', '  ', '-', 'word', 'é', 'ñ', '│', '→', '…') },
  { weight: 3, arbitrary: fc.constantFrom('中', '文', '字', '가', '😀', '🔥', 'Ａ', '中文') },
  { weight: 1, arbitrary: fc.constantFrom('e\u0301', 'a\u0308', 'n\u0303', '\u0301') },
);
const sgr = fc.oneof(
  fc.constantFrom(
    '0', '', '1', '2', '3', '4', '5', '7', '8', '9', '53', '22', '23', '24', '25', '27', '28', '29', '55',
    '31', '92', '39', '44', '103', '49', '1;31', '0;4;35', '4:0', '4:3', '38:5:200', '48:2::10:20:30',
  ),
  fc.integer({ min: 0, max: 255 }).map((n) => `38;5;${n}`),
  fc.integer({ min: 0, max: 255 }).map((n) => `48;5;${n}`),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `38;2;${r};${g};${b}`),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `48;2;${r};${g};${b}`),
).map((p) => `\x1b[${p}m`);
const token = fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: sgr });

/** A line whose text fits in `columns` cells (so the naive reference draw does not wrap). */
const line = (columns: number) =>
  fc.array(token, { maxLength: 14 }).map((tokens) => {
    let width = 0;
    let out = '';
    let afterText = false;
    for (const t of tokens) {
      const isSgr = t.startsWith('\x1b');
      const w = isSgr ? 0 : stringWidth(t);
      if (width + w > columns) continue;
      // A combining mark not directly after text is drawn differently by each terminal
      // (xterm.js gives it a cell of its own after an SGR change).
      if (t === '\u0301' && !afterText) continue;
      width += w;
      out += t;
      afterText = !isSgr;
    }
    return out;
  });

type Step =
  | { kind: 'frame'; lines: string[] }
  | { kind: 'same' }
  | { kind: 'edit'; at: number; line: string }
  | { kind: 'shift'; top: number; bottomGap: number; by: number; fresh: string[] }
  | { kind: 'resize'; columns: number; rows: number };

const steps = (columns: number, rows: number) => {
  const l = line(columns);
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('frame' as const), lines: fc.array(l, { maxLength: rows + 2 }) }),
    fc.constant({ kind: 'same' as const }),
    fc.record({ kind: fc.constant('edit' as const), at: fc.nat(rows), line: l }),
    fc.record({
      kind: fc.constant('shift' as const),
      top: fc.nat(3),
      bottomGap: fc.nat(2),
      by: fc.integer({ min: -3, max: 4 }),
      fresh: fc.array(l, { minLength: 4, maxLength: 4 }),
    }),
    fc.record({
      kind: fc.constant('resize' as const),
      columns: fc.integer({ min: columns, max: columns + 6 }),
      rows: fc.integer({ min: 2, max: 12 }),
    }),
  );
  return fc.array(step, { minLength: 1, maxLength: 10 });
};

function nextLines(prev: string[], step: Step): string[] {
  switch (step.kind) {
    case 'frame': return step.lines;
    case 'same': case 'resize': return prev;
    case 'edit': {
      const out = prev.slice();
      while (out.length <= step.at) out.push('');
      out[step.at] = step.line;
      return out;
    }
    case 'shift': {
      // A region [top, length - bottomGap) whose content moves by `by` lines, like a scrolling transcript.
      const top = Math.min(step.top, prev.length);
      const bottom = Math.max(top, prev.length - step.bottomGap);
      const body = prev.slice(top, bottom);
      const n = Math.min(Math.abs(step.by), body.length);
      const moved = step.by >= 0
        ? [...body.slice(n), ...step.fresh.slice(0, n)]
        : [...step.fresh.slice(0, n), ...body.slice(0, body.length - n)];
      return [...prev.slice(0, top), ...moved, ...prev.slice(bottom)];
    }
  }
}

describe('frame writer on a virtual terminal', () => {
  it('reproduces every frame cell by cell (chars, widths, colours, attributes)', async () => {
    const scenario = fc
      .record({ columns: fc.integer({ min: 6, max: 24 }), rows: fc.integer({ min: 2, max: 10 }) })
      .chain(({ columns, rows }) => fc.record({
        columns: fc.constant(columns),
        rows: fc.constant(rows),
        first: fc.array(line(columns), { maxLength: rows + 1 }),
        steps: steps(columns, rows),
      }));
    await fc.assert(
      fc.asyncProperty(scenario, async ({ columns, rows, first, steps: plan }) => {
        let size = { columns, rows };
        const vt = createVirtualTerminal(columns, rows);
        const out = createByteCounter({ forward: { write: (s) => vt.term.write(s) } });
        const writer = createFrameWriter({ out, columns, rows });
        let lines = first;
        for (const step of [{ kind: 'frame', lines: first } as Step, ...plan]) {
          if (step.kind === 'resize') {
            size = { columns: step.columns, rows: step.rows };
            vt.resize(size.columns, size.rows);
            writer.resize(size.columns, size.rows);
          }
          lines = nextLines(lines, step);
          const frame = lines.join('\n');
          writer.writeFrame(frame);
          await vt.write('');
          const reference = await renderReference(frame, size.columns, size.rows);
          expect(vt.cells()).toEqual(reference.cells());
          reference.dispose();
          out.reset();
          writer.writeFrame(frame);
          expect(out.bytes).toBe(0);
        }
        vt.dispose();
      }),
      { numRuns: 250 },
    );
  }, 120_000);

  it('clips lines at the last column and frames at the last row', async () => {
    const vt = createVirtualTerminal(6, 2);
    const writer = createFrameWriter({ out: { write: (s) => vt.term.write(s) }, columns: 6, rows: 2 });
    writer.writeFrame('abcdefghij\nabcde中x\nthird');
    await vt.write('');
    expect(vt.lines()).toEqual(['abcdef', 'abcde']);
    writer.writeFrame('ab\n中中中中');
    await vt.write('');
    expect(vt.lines()).toEqual(['ab', '中中中']);
  });
});

describe('frame writer byte cost', () => {
  const transcript = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `\x1b[32m${String(from + i).padStart(4)}\x1b[39m line of streamed transcript text, number ${from + i} of many`);

  it('writes nothing for an identical frame', () => {
    const out = createByteCounter();
    const writer = createFrameWriter({ out, columns: 80, rows: 24 });
    writer.writeFrame(transcript(0, 20).join('\n'));
    out.reset();
    writer.writeFrame(transcript(0, 20).join('\n'));
    expect(out.bytes).toBe(0);
    expect(out.writes).toBe(0);
  });

  it('writes a handful of bytes for a one-character change', async () => {
    const out = createByteCounter({ keep: true });
    const writer = createFrameWriter({ out, columns: 80, rows: 24 });
    const lines = transcript(0, 20);
    writer.writeFrame(lines.join('\n'));
    out.reset();
    lines[7] = (lines[7] ?? '').replace('streamed', 'streaMed');
    writer.writeFrame(lines.join('\n'));
    // 16 bytes of synchronized-output brackets, a cursor move and the character.
    expect(out.bytes).toBeLessThanOrEqual(16 + 8 + 1);
    expect(out.text).toContain('M');
  });

  it('scrolls a 30-line region by one line for far less than a redraw', async () => {
    const columns = 100;
    const rows = 40;
    const frame = (first: number) => ['HEADER', ...transcript(first, 30), '─'.repeat(99), '> prompt'].join('\n');
    const vt = createVirtualTerminal(columns, rows);
    const out = createByteCounter({ forward: { write: (s) => vt.term.write(s) } });
    const writer = createFrameWriter({ out, columns, rows });
    writer.writeFrame(frame(0));
    const redraw = out.bytes;
    out.reset();
    writer.writeFrame(frame(1));
    await vt.write('');
    const reference = await renderReference(frame(1), columns, rows);
    expect(vt.cells()).toEqual(reference.cells());
    // One new line of ~75 visible characters plus scroll-region setup.
    expect(out.bytes).toBeLessThan(130);
    expect(out.bytes * 20).toBeLessThan(redraw);

    const lineDiffOnly = createByteCounter();
    const plain = createFrameWriter({ out: lineDiffOnly, columns, rows, scroll: false });
    plain.writeFrame(frame(0));
    lineDiffOnly.reset();
    plain.writeFrame(frame(1));
    expect(out.bytes * 5).toBeLessThan(lineDiffOnly.bytes);
  });

  it('re-draws everything after a resize and after invalidate', () => {
    const out = createByteCounter({ keep: true });
    const writer = createFrameWriter({ out, columns: 40, rows: 10 });
    writer.writeFrame('hello');
    out.reset();
    writer.invalidate();
    writer.writeFrame('hello');
    expect(out.text).toContain('\x1b[2J');
    expect(out.text).toContain('hello');
    out.reset();
    writer.resize(30, 8);
    writer.writeFrame('hello');
    expect(out.text).toContain('\x1b[2J');
    expect(out.text).toMatch(/^\x1b\[\?2026h[\s\S]*\x1b\[\?2026l$/);
  });
});

describe('synchronized output', () => {
  it('wraps full redraws and large updates, not a few changed characters', () => {
    const out = createByteCounter({ keep: true });
    const writer = createFrameWriter({ out, columns: 40, rows: 10 });
    writer.writeFrame('first line\nsecond');
    expect(out.text).toMatch(/^\x1b\[\?2026h[\s\S]*\x1b\[\?2026l$/);
    out.reset();
    writer.writeFrame('first line\nsecond!');
    expect(out.text).not.toContain('\x1b[?2026h');
    expect(out.text).toContain('!');
    out.reset();
    writer.writeFrame(Array.from({ length: 8 }, (_, i) => `a whole new line number ${i}`).join('\n'));
    expect(out.text).toMatch(/^\x1b\[\?2026h[\s\S]*\x1b\[\?2026l$/);
  });
});

describe('frame writer streaming cost', () => {
  it('follows a streaming full-screen transcript for under 3 bytes per appended character', async () => {
    const columns = 120;
    const rows = 50;
    const words = 'streamed tokens from the model land in a transcript view that follows the bottom'.split(' ');
    const vt = createVirtualTerminal(columns, rows);
    const out = createByteCounter({ forward: { write: (s) => vt.term.write(s) } });
    const writer = createFrameWriter({ out, columns, rows });
    const wrapped: string[] = [''];
    let appended = 0;
    let frame = '';
    for (let i = 0; appended < 20_000; ) {
      // ~30 characters per frame: a 33 ms batch of a fast stream.
      for (let chunk = 0; chunk < 30; i++) {
        const word = `${words[i % words.length]} `;
        const last = wrapped.length - 1;
        if ((wrapped[last] ?? '').length + word.length > columns - 2 || i % 41 === 40) wrapped.push('');
        wrapped[wrapped.length - 1] += word;
        chunk += word.length;
        appended += word.length;
      }
      const view = wrapped.slice(-44).map((l) => `\x1b[37m${l}\x1b[39m`);
      frame = ['\x1b[1mcairn\x1b[22m', ...view, '─'.repeat(columns), '> '].join('\n');
      writer.writeFrame(frame);
    }
    expect(out.bytes / appended).toBeLessThan(3);
    await vt.write('');
    const reference = await renderReference(frame, columns, rows);
    expect(vt.cells()).toEqual(reference.cells());
  });
});
