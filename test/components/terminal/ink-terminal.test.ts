import { EventEmitter } from 'node:events';
import React from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createByteCounter } from '../../../components/terminal/byte-counter.js';
import { createInkTerminal } from '../../../components/terminal/ink-terminal.js';
import { fakeStdin, loadInk } from './ink-harness.js';
import { createVirtualTerminal, renderReference } from './xterm-harness.js';

const { Box, Text, render, renderToString } = await loadInk();
const h = React.createElement;

/** A transcript viewport with header and footer, like cairn's full-screen layout. */
function View({ lines, status }: { lines: string[]; status: string }) {
  return h(Box, { flexDirection: 'column', width: '100%' },
    h(Text, { bold: true, color: 'cyan' }, 'cairn — 中文 header'),
    h(Box, { flexDirection: 'column', height: 6, overflow: 'hidden' },
      ...lines.slice(-6).map((l, i) => h(Text, { key: `${lines.length}-${i}`, wrap: 'truncate' }, l))),
    h(Box, { borderStyle: 'round', borderColor: 'green' }, h(Text, { dimColor: true }, status)));
}

function fakeTerminal(columns: number, rows: number) {
  const vt = createVirtualTerminal(columns, rows);
  const counter = createByteCounter({ forward: { write: (s) => vt.term.write(s) } });
  const stream = Object.assign(new EventEmitter(), { columns, rows, write: (s: string) => counter.write(s) });
  return { vt, counter, stream };
}

describe('Ink -> frame capture -> frame writer -> terminal', () => {
  it('shows exactly what Ink renders, through updates and a resize', async () => {
    const { vt, counter, stream } = fakeTerminal(40, 12);
    const term = createInkTerminal(stream);
    const lines: string[] = [];
    const props = () => ({ lines: lines.slice(), status: `${lines.length} lines ✓` });
    const instance = render(h(View, props()), {
      stdout: term.stdout as unknown as NodeJS.WriteStream, stdin: fakeStdin(), patchConsole: false, exitOnCtrlC: false,
    });
    const expectScreen = async (columns: number, rows: number) => {
      const expected = renderToString(h(View, props()), { columns });
      await vi.waitFor(async () => {
        await vt.write('');
        expect(vt.lines().join('\n').trimEnd()).toBe(expected.replace(/\x1b\[[0-9;]*m/g, ''));
      });
      const reference = await renderReference(expected, columns, rows);
      expect(vt.cells()).toEqual(reference.cells());
    };
    await expectScreen(40, 12);

    for (let i = 0; i < 12; i++) {
      lines.push(`\x1b[33m${i}\x1b[39m streamed 😀 line number ${i}`);
      instance.rerender(h(View, props()));
      // Waits past Ink's 30 fps throttle for this update's frame.
      await expectScreen(40, 12);
    }

    counter.reset();
    stream.columns = 30;
    stream.rows = 10;
    vt.resize(30, 10);
    stream.emit('resize');
    await expectScreen(30, 10);
    expect(counter.bytes).toBeGreaterThan(0);

    counter.reset();
    term.redraw();
    await vt.write('');
    await expectScreen(30, 10);
    expect(counter.bytes).toBeGreaterThan(100);

    instance.unmount();
    term.dispose();
    expect(stream.listenerCount('resize')).toBe(0);
  });
});

describe('overlay rows', () => {
  it('rows the app draws itself land in Ink blank rows, update without an Ink frame, and cost only their change', async () => {
    const { vt, counter, stream } = fakeTerminal(40, 8);
    const term = createInkTerminal(stream);
    const Screen = ({ status }: { status: string }) =>
      h(Box, { flexDirection: 'column' }, h(Text, null, 'header'), h(Box, { height: 4 }), h(Text, null, status));
    const instance = render(h(Screen, { status: 'ready' }), {
      stdout: term.stdout as unknown as NodeJS.WriteStream, stdin: fakeStdin(), patchConsole: false, exitOnCtrlC: false,
    });
    let painted = ['first \x1b[32mgreen\x1b[39m line', 'second line', '', ''];
    term.overlay.setPainter({ rows: () => [{ top: 1, lines: painted }], cursor: () => 'show' });
    await vi.waitFor(async () => {
      await vt.write('');
      expect(vt.lines().slice(0, 6)).toEqual(['header', 'first green line', 'second line', '', '', 'ready']);
    });
    // Only the rows change: Ink renders nothing new, the overlay is still drawn, and cheaply.
    counter.reset();
    painted = ['first \x1b[32mgreen\x1b[39m line', 'second line!', '', ''];
    term.overlay.invalidate();
    await vi.waitFor(async () => {
      await vt.write('');
      expect(vt.lines()[2]).toBe('second line!');
    });
    expect(counter.bytes).toBeLessThan(40);
    // An Ink frame keeps the overlay rows.
    instance.rerender(h(Screen, { status: 'busy' }));
    await vi.waitFor(async () => {
      await vt.write('');
      expect(vt.lines().slice(0, 6)).toEqual(['header', 'first green line', 'second line!', '', '', 'busy']);
    });
    instance.unmount();
    term.dispose();
  });
});
