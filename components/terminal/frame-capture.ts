// A fake stdout for Ink: instead of forwarding Ink's bytes (erase lines, clear screen,
// rewrite everything), it replays them on a small line model of the screen and hands
// the resulting frame text to a frame writer.
//
// What Ink 6.8 writes (build/ink.js, log-update.js, cursor-helpers.js):
//   standard:    [ESC[?25l] + [ESC[2K ESC[1A]* ESC[2K ESC[G (eraseLines) + frame + '\n'
//                (no trailing '\n' when the frame is as tall as the terminal)
//   tall frames: ESC[2J ESC[3J ESC[H + static output + frame
//   incremental: ESC[nA, then per line ESC[1G + line + ESC[K + '\n' or ESC[E to skip
//   cursor:      ESC[nA ESC[nG ESC[?25h after a frame, ESC[nB ESC[1G before the next
//   each flush wrapped in separate ESC[?2026h / ESC[?2026l writes (TTY, not CI)
// Everything that only positions the cursor is applied to the model; other control
// sequences (e.g. the kitty keyboard protocol) go to `onControl` for the real terminal.
import { Writable } from 'node:stream';

export interface FrameCaptureOptions {
  columns: number;
  rows: number;
  /** Receives each new frame (lines joined by '\n'), at most once per event-loop turn. */
  onFrame(frame: string): void;
  /** Receives escape sequences that are not part of drawing, to pass to the terminal. */
  onControl?(sequence: string): void;
  /** Sees every chunk Ink writes, unchanged (for logging or comparing with a real terminal). */
  onRaw?(chunk: string): void;
}

const TOKEN = /\x1b\[([?>=<]?)([0-9;:]*)[ -/]*([@-~])|\x1b\][\s\S]*?(?:\x07|\x1b\\)|\x1b[\s\S]|\r|\n|[^\x1b\r\n]+|\x1b/g;

export class FrameCapture extends Writable {
  columns: number;
  rows: number;
  readonly isTTY = true;
  private lines: string[] = [''];
  private row = 0;
  /** Whether text at the cursor replaces the line (cursor at column 0) or appends. */
  private atLineStart = true;
  private emitted = '';
  private scheduled = false;

  constructor(private readonly options: FrameCaptureOptions) {
    super({ decodeStrings: false });
    this.columns = options.columns;
    this.rows = options.rows;
  }

  /** Updates the size and tells Ink, which re-renders synchronously. */
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    // A shorter terminal keeps the bottom of the screen, as terminals do.
    const excess = this.lines.length - Math.max(1, rows);
    if (excess > 0) {
      this.lines = this.lines.slice(excess);
      this.row = Math.max(0, this.row - excess);
    }
    this.emit('resize');
  }

  /** The current frame text. */
  get frame(): string {
    let end = this.lines.length;
    while (end > 0 && this.lines[end - 1] === '') end--;
    return this.lines.slice(0, end).join('\n');
  }

  /** Emits the current frame now if it differs from the last one emitted. */
  flush(): void {
    this.scheduled = false;
    const frame = this.frame;
    if (frame === this.emitted) return;
    this.emitted = frame;
    this.options.onFrame(frame);
  }

  override _write(chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      const text = typeof chunk === 'string' ? chunk : String(chunk);
      this.options.onRaw?.(text);
      this.apply(text);
      if (!this.scheduled) {
        // Ink writes one frame as several chunks (sync begin, erase + text, sync end); one flush per turn.
        this.scheduled = true;
        queueMicrotask(() => this.flush());
      }
      callback();
    } catch (error) {
      callback(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private moveTo(row: number): void {
    this.row = Math.max(0, Math.min(this.rows - 1, row));
    while (this.lines.length <= this.row) this.lines.push('');
  }

  private newline(): void {
    this.row++;
    this.atLineStart = true;
    if (this.row >= this.lines.length) this.lines.push('');
    // Like a terminal: output past the bottom scrolls the top line away.
    while (this.lines.length > Math.max(1, this.rows)) {
      this.lines.shift();
      this.row--;
    }
  }

  private text(t: string): void {
    const current = this.atLineStart ? '' : (this.lines[this.row] ?? '');
    this.lines[this.row] = current + t;
    this.atLineStart = false;
  }

  private csi(prefix: string, params: string, final: string, raw: string): void {
    const n = Math.max(1, Number(params.split(';')[0]) || 1);
    if (prefix === '' && final === 'm') return this.text(raw);
    if (prefix === '?' && (params === '2026' || params === '25')) return;
    if (prefix !== '') return this.options.onControl?.(raw);
    switch (final) {
      case 'A': return this.moveTo(this.row - n);
      case 'B': return this.moveTo(this.row + n);
      case 'E': this.moveTo(this.row + n); this.atLineStart = true; return;
      case 'F': this.moveTo(this.row - n); this.atLineStart = true; return;
      case 'C': case 'D': this.atLineStart = false; return;
      case 'G': this.atLineStart = n <= 1; return;
      case 'H': case 'f': {
        const [r, c] = params.split(';');
        this.moveTo((Number(r) || 1) - 1);
        this.atLineStart = (Number(c) || 1) <= 1;
        return;
      }
      case 'K':
        if (params === '2' || this.atLineStart) this.lines[this.row] = '';
        if (params === '2') this.atLineStart = true;
        return;
      case 'J':
        if (params === '3') return;
        if (params === '2') {
          this.lines = this.lines.slice(-Math.max(1, this.rows)).map(() => '');
          this.row = Math.min(this.row, this.lines.length - 1);
        }
        else if (params === '' || params === '0') this.lines = this.lines.slice(0, this.row + 1);
        return;
      default: return this.options.onControl?.(raw);
    }
  }

  private apply(chunk: string): void {
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(chunk); m; m = TOKEN.exec(chunk)) {
      const raw = m[0];
      if (m[3] !== undefined) this.csi(m[1] ?? '', m[2] ?? '', m[3], raw);
      else if (raw === '\n') this.newline();
      else if (raw === '\r') this.atLineStart = true;
      else if (raw.startsWith('\x1b]')) this.text(raw); // OSC 8 links belong to the text
      else if (raw.startsWith('\x1b')) this.options.onControl?.(raw);
      else this.text(raw);
    }
  }
}

export function createFrameCapture(options: FrameCaptureOptions): FrameCapture {
  return new FrameCapture(options);
}
