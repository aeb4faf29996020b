// Wires Ink to a real terminal through the frame capture and the cell-diff writer:
//   const term = createInkTerminal(process.stdout);
//   render(<App />, { stdout: term.stdout, ... });
import { createFrameCapture, type FrameCapture } from './frame-capture.js';
import { createFrameWriter, type FrameWriter } from './frame-writer.js';
import { findCaret } from './caret.js';
import { composeFrame, type LineOverlay, type OverlayRows } from './line-overlay.js';
import { timedFrame } from './frame-stats.js';

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

export function createInkTerminal(terminal: TerminalStream, options: { scroll?: boolean } = {}): InkTerminal {
  const size = () => ({ columns: terminal.columns || 80, rows: terminal.rows || 24 });
  const { columns, rows } = size();
  const writer = createFrameWriter({ out: terminal, columns, rows, scroll: options.scroll });
  // Ink writes a last frame on unmount, after the app may have left the alternate screen:
  // once disposed, nothing more reaches the terminal.
  let disposed = false;
  let overlayRows: OverlayRows | undefined;
  let overlayPending = false;
  // Set when overlay rows changed and no frame has carried them yet.
  let overlayDirty = false;
  // Every frame, then the hardware cursor back at the prompt's caret (or hidden when none is drawn).
  const draw = (frame: string): void =>
    timedFrame(() => {
      writer.writeFrame(composeFrame(frame, overlayRows));
      writer.showCursorAt(findCaret(frame));
    });
  const stdout = createFrameCapture({
    columns,
    rows,
    onFrame: (frame) => {
      overlayDirty = false;
      if (!disposed) draw(frame);
    },
    onControl: (sequence) => {
      if (!disposed) terminal.write(sequence);
    },
  });
  const redraw = (): void => {
    if (disposed) return;
    stdout.flush();
    writer.invalidate();
    draw(stdout.frame);
  };
  // Overlay rows change without Ink's frame changing: draw them with Ink's last frame, once per tick.
  const overlay: LineOverlay = {
    set(top, lines) {
      overlayRows = { top, lines };
      overlayDirty = true;
      if (overlayPending) return;
      overlayPending = true;
      // After I/O callbacks: if Ink writes a frame meanwhile, it carries the rows and this is skipped.
      setImmediate(() => {
        overlayPending = false;
        if (disposed || !overlayDirty) return;
        overlayDirty = false;
        draw(stdout.frame);
      });
    },
    clear() {
      overlayRows = undefined;
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
      terminal.off('resize', onResize);
    },
  };
}
