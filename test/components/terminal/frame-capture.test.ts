import React from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createFrameCapture, type FrameCapture } from '../../../components/terminal/frame-capture.js';
import { createFrameWriter } from '../../../components/terminal/frame-writer.js';
import { fakeStdin, loadInk } from './ink-harness.js';
import { createVirtualTerminal, type VirtualTerminal } from './xterm-harness.js';
import { waitFor } from '../../helpers/wait-for.js';

const { Box, Text, Static, render, renderToString } = await loadInk();
const h = React.createElement;

type Setter = (n: number) => void;

/** Lines with colours, bold, CJK and emoji; `n` lines tall. */
function Lines({ expose }: { expose: (set: Setter) => void }) {
  const [n, setN] = React.useState(3);
  expose(setN);
  return h(Box, { flexDirection: 'column' },
    ...Array.from({ length: n }, (_, i) => h(Text, { key: i, color: i % 2 ? 'green' : 'magenta', bold: i === 1 },
      // Raw truecolor SGR: chalk's colour level under vitest is 1, Ink passes SGR in text through.
      `line ${i} 中文 `, h(Text, { backgroundColor: 'blue' }, '\x1b[38;2;200;100;50m😀\x1b[39m ok'))));
}

interface Rig {
  capture: FrameCapture;
  /** The screen Ink's own bytes produce on a terminal. */
  inkScreen: VirtualTerminal;
  /** The screen produced by capture -> frame writer. */
  ourScreen: VirtualTerminal;
  frames: string[];
  set: Setter;
  /** Waits until Ink (past its render throttle) has drawn `n` lines, then flushes both screens. */
  settle(n: number): Promise<void>;
  unmount(): void;
}

function rig(columns: number, rows: number, options: { incrementalRendering?: boolean } = {}): Rig {
  const inkScreen = createVirtualTerminal(columns, rows, { convertEol: true });
  const ourScreen = createVirtualTerminal(columns, rows);
  const writer = createFrameWriter({ out: { write: (s) => ourScreen.term.write(s) }, columns, rows });
  const frames: string[] = [];
  const capture = createFrameCapture({
    columns,
    rows,
    onFrame: (frame) => {
      frames.push(frame);
      writer.writeFrame(frame);
    },
    onRaw: (chunk) => inkScreen.term.write(chunk),
  });
  let set: Setter = () => {};
  const instance = render(h(Lines, { expose: (s: Setter) => (set = s) }), {
    stdout: capture as unknown as NodeJS.WriteStream,
    stdin: fakeStdin(),
    patchConsole: false,
    exitOnCtrlC: false,
    ...options,
  });
  return {
    capture, inkScreen, ourScreen, frames,
    set: (n) => set(n),
    async settle(n) {
      await waitFor(() => capture.frame.includes(`line ${n - 1} `) && !capture.frame.includes(`line ${n} `), { message: `Ink to draw ${n} lines` });
      capture.flush();
      await inkScreen.write('');
      await ourScreen.write('');
    },
    unmount: () => instance.unmount(),
  };
}

describe('frame capture with real Ink 6.8', () => {
  it.each([false, true])('ends up with the screen Ink itself draws (incremental: %s)', async (incrementalRendering) => {
    const r = rig(24, 6, { incrementalRendering });
    await vi.waitFor(() => expect(r.frames.length).toBeGreaterThan(0));
    // 3 lines, taller, taller than the terminal (Ink's full-screen path), back to short (Ink clears the screen).
    for (const n of [3, 4, 5, 8, 9, 2, 3]) {
      r.set(n);
      await r.settle(n);
      expect(r.inkScreen.lines().join('\n').trimEnd()).toBe(r.capture.frame.replace(/\x1b\[[0-9;]*m/g, ''));
      expect(r.ourScreen.cells()).toEqual(r.inkScreen.cells());
    }
    r.unmount();
  });

  it('produces the same text as renderToString', async () => {
    const r = rig(30, 10);
    r.set(4);
    await r.settle(4);
    // renderToString shows the initial state (3 lines): compare against a 3-line render.
    const expected = renderToString(h(Lines, { expose: () => {} }), { columns: 30 });
    r.set(3);
    await r.settle(3);
    expect(r.capture.frame).toBe(expected);
    r.unmount();
  });

  it('tells Ink about a resize and captures the re-render at the new width', async () => {
    const capture = createFrameCapture({ columns: 40, rows: 5, onFrame: () => {} });
    const instance = render(h(Box, { borderStyle: 'single', width: '100%' }, h(Text, null, 'boxed')), {
      stdout: capture as unknown as NodeJS.WriteStream, stdin: fakeStdin(), patchConsole: false, exitOnCtrlC: false,
    });
    await vi.waitFor(() => expect(capture.frame.split('\n')[0]).toBe(`┌${'─'.repeat(38)}┐`));
    capture.resize(20, 5);
    await vi.waitFor(() => expect(capture.frame.split('\n')[0]).toBe(`┌${'─'.repeat(18)}┐`));
    expect(capture.frame.split('\n')).toHaveLength(3);
    instance.unmount();
  });

  it('keeps <Static> output above the live frame like a terminal would', async () => {
    const inkScreen = createVirtualTerminal(30, 8, { convertEol: true });
    const capture = createFrameCapture({ columns: 30, rows: 8, onFrame: () => {}, onRaw: (c) => inkScreen.term.write(c) });
    let add: (s: string) => void = () => {};
    function App() {
      const [items, setItems] = React.useState<string[]>(['first']);
      add = (s) => setItems((old) => [...old, s]);
      return h(Box, { flexDirection: 'column' },
        h(Static<string>, { items, children: (item: string) => h(Text, { key: item }, `done: ${item}`) }),
        h(Text, { color: 'cyan' }, `live ${items.length}`));
    }
    const instance = render(h(App), { stdout: capture as unknown as NodeJS.WriteStream, stdin: fakeStdin(), patchConsole: false, exitOnCtrlC: false });
    for (const [i, item] of ['second', 'third'].entries()) {
      add(item);
      await waitFor(() => capture.frame.includes(`live ${i + 2}`), { message: `Ink to draw ${item}` });
    }
    await inkScreen.write('');
    expect(capture.frame.replace(/\x1b\[[0-9;]*m/g, '')).toBe('done: first\ndone: second\ndone: third\nlive 3');
    expect(inkScreen.lines().join('\n').trimEnd()).toBe('done: first\ndone: second\ndone: third\nlive 3');
    instance.unmount();
  });
});

describe('frame capture protocol handling', () => {
  it('passes non-drawing control sequences through and keeps styles in the frame', () => {
    const controls: string[] = [];
    const frames: string[] = [];
    const capture = createFrameCapture({ columns: 20, rows: 4, onFrame: (f) => frames.push(f), onControl: (s) => controls.push(s) });
    capture.write('\x1b[?2026h');
    capture.write('\x1b[?25l');
    capture.write('\x1b[31mred\x1b[39m\nplain\n');
    capture.write('\x1b[?2026l');
    capture.write('\x1b[>1u');
    capture.write(Buffer.from('\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[Gone\n'));
    capture.flush();
    expect(controls).toEqual(['\x1b[>1u']);
    expect(frames).toEqual(['one']);
    expect(capture.frame).toBe('one');
  });

  it('emits one frame per event-loop turn, only when it changed', async () => {
    const frames: string[] = [];
    const capture = createFrameCapture({ columns: 20, rows: 4, onFrame: (f) => frames.push(f) });
    capture.write('a\n');
    capture.write('\x1b[2K\x1b[1A\x1b[2K\x1b[Gb\n');
    await new Promise((resolve) => setImmediate(resolve));
    capture.write('\x1b[2K\x1b[1A\x1b[2K\x1b[Gb\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames).toEqual(['b']);
  });
});
