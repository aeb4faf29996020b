// Wires Ink to a real terminal through the frame capture and the cell-diff writer:
//   const term = createInkTerminal(process.stdout);
//   render(<App />, { stdout: term.stdout, ... });
import { createFrameCapture, type FrameCapture } from './frame-capture.js';
import { createFrameWriter, type FrameWriter } from './frame-writer.js';

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
  /** Stop following terminal resizes. */
  dispose(): void;
}

export function createInkTerminal(terminal: TerminalStream, options: { scroll?: boolean } = {}): InkTerminal {
  const size = () => ({ columns: terminal.columns || 80, rows: terminal.rows || 24 });
  const { columns, rows } = size();
  const writer = createFrameWriter({ out: terminal, columns, rows, scroll: options.scroll });
  // Ink writes a last frame on unmount, after the app may have left the alternate screen:
  // once disposed, nothing more reaches the terminal.
  let disposed = false;
  const stdout = createFrameCapture({
    columns,
    rows,
    onFrame: (frame) => {
      if (!disposed) writer.writeFrame(frame);
    },
    onControl: (sequence) => {
      if (!disposed) terminal.write(sequence);
    },
  });
  const redraw = (): void => {
    if (disposed) return;
    stdout.flush();
    writer.invalidate();
    writer.writeFrame(stdout.frame);
  };
  const onResize = (): void => {
    if (disposed) return;
    const next = size();
    writer.resize(next.columns, next.rows);
    stdout.resize(next.columns, next.rows); // Ink re-renders (now or after its throttle)
    // The screen must be redrawn even if Ink's frame text does not change.
    queueMicrotask(() => {
      stdout.flush();
      writer.writeFrame(stdout.frame);
    });
  };
  terminal.on('resize', onResize);
  return {
    stdout,
    writer,
    redraw,
    dispose: () => {
      disposed = true;
      terminal.off('resize', onResize);
    },
  };
}
