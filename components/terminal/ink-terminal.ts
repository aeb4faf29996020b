// Wires Ink to a real terminal through the frame capture and the cell-diff writer:
//   const term = createInkTerminal(process.stdout);
//   render(<App />, { stdout: term.stdout, ... });
import { createFrameCapture, type FrameCapture } from './frame-capture.js';
import { createFrameWriter, type FrameWriter } from './frame-writer.js';
import { findCaret } from './caret.js';
import { composeLines, type LineOverlay, type OverlayPainter } from './line-overlay.js';
import { timedFrame } from './frame-stats.js';
import { FRAME_MS } from '../frame-rate.js';

/** The parts of a tty stream this needs (process.stdout fits). */
export interface TerminalStream {
  write(s: string): unknown;
  columns?: number;
  rows?: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}


export interface InkTerminal {
  /** Pass to Ink as `render(el, { stdout })`. */
  readonly stdout: FrameCapture;
  readonly writer: FrameWriter;
  /** Redraw the whole screen (after something else wrote to the terminal). */
  redraw(): void;
  /** Rows the app draws itself, pasted into Ink's frames. */
  readonly overlay: LineOverlay;
  /** Stop following terminal resizes. */
  dispose(): void;
}

export function createInkTerminal(terminal: TerminalStream, options: { scroll?: boolean; initialFrame?: string } = {}): InkTerminal {
  const size = () => ({ columns: terminal.columns || 80, rows: terminal.rows || 24 });
  const { columns, rows } = size();
  const writer = createFrameWriter({ out: terminal, columns, rows, scroll: options.scroll });
  // The early first frame (components/app/early-frame.ts) is on screen: Ink's first frame is a diff.
  if (options.initialFrame !== undefined) writer.assume(options.initialFrame);
  // Ink writes a last frame on unmount, after the app may have left the alternate screen:
  // once disposed, nothing more reaches the terminal.
  let disposed = false;
  let painter: OverlayPainter | undefined;
  let lastDrawAt = -Infinity;
  let immediate: ReturnType<typeof setImmediate> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Ink's frame split into lines once: between Ink's renders the painter's frames reuse it.
  let inkFrame: { text: string; lines: readonly string[] } = { text: '', lines: [''] };
  const inkLines = (frame: string): readonly string[] => {
    if (inkFrame.text !== frame) inkFrame = { text: frame, lines: frame.split('\n') };
    return inkFrame.lines;
  };
  // Every frame, then the hardware cursor back at the prompt's caret (or hidden when none is drawn).
  const draw = (frame: string): void =>
    timedFrame(() => {
      if (immediate) clearImmediate(immediate);
      if (timer) clearTimeout(timer);
      immediate = undefined;
      timer = undefined;
      lastDrawAt = performance.now();
      // Lines, not one joined string: the writer compares and parses them line by line.
      const composed = composeLines(inkLines(frame), painter?.rows() ?? []);
      writer.writeFrame(composed);
      const mode = painter?.cursor() ?? 'show';
      writer.showCursorAt(mode === 'leave' ? undefined : findCaret(composed), mode === 'show');
    });
  const stdout = createFrameCapture({
    columns,
    rows,
    onFrame: (frame) => {
      if (!disposed) draw(frame);
    },
    onControl: (sequence) => {
      if (!disposed) terminal.write(sequence);
    },
  });
  const drawPainted = (): void => {
    if (!disposed) draw(stdout.frame);
  };
  const redraw = (): void => {
    if (disposed) return;
    stdout.flush();
    writer.invalidate();
    draw(stdout.frame);
  };
  // The painter's rows change without Ink's frame changing: they are drawn with Ink's last frame.
  const overlay: LineOverlay = {
    setPainter(next) {
      painter = next;
      overlay.invalidate(true);
    },
    invalidate(urgent = false) {
      if (disposed || immediate) return;
      const wait = urgent ? 0 : FRAME_MS - (performance.now() - lastDrawAt);
      if (wait <= 0) {
        // After I/O callbacks: if Ink writes a frame meanwhile, it carries the rows and this is skipped.
        if (timer) clearTimeout(timer);
        timer = undefined;
        immediate = setImmediate(drawPainted);
      } else {
        timer ??= setTimeout(drawPainted, wait);
      }
    },
  };
  const onResize = (): void => {
    if (disposed) return;
    const next = size();
    writer.resize(next.columns, next.rows);
    stdout.resize(next.columns, next.rows); // Ink re-renders (now or after its throttle)
    // The screen must be redrawn even if Ink's frame text does not change.
    queueMicrotask(() => {
      stdout.flush();
      draw(stdout.frame);
    });
  };
  terminal.on('resize', onResize);
  return {
    stdout,
    writer,
    redraw,
    overlay,
    dispose: () => {
      disposed = true;
      if (immediate) clearImmediate(immediate);
      if (timer) clearTimeout(timer);
      terminal.off('resize', onResize);
    },
  };
}
