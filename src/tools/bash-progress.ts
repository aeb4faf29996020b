// A running command's output, handed on as progress in pieces of whole lines: at most one piece per
// interval (the first after a quiet spell at once), or sooner once a piece reaches its size cap.
// One progress event per line made a 100,000-line command 100,000 events, each a store update; and
// a chunk's lines travel as one string, never split into a string per line.
import { MAX_SPLIT_LINE_CHARS } from './output-buffer.js';

/** At most one piece per this long, beside the size cap. */
export const PROGRESS_INTERVAL_MS = 50;
/** A piece is handed on once it holds this many characters, whatever the time. */
export const PROGRESS_MAX_CHARS = 64 * 1024;

const CUT = '… [line cut]';

/** Lines past MAX_SPLIT_LINE_CHARS cut (the same as LineSplitter does); `text` ends with a newline. */
function cutLongLines(text: string): string {
  let out = '';
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    out += nl - start > MAX_SPLIT_LINE_CHARS ? `${text.slice(start, start + MAX_SPLIT_LINE_CHARS)}${CUT}\n` : text.slice(start, nl + 1);
    start = nl + 1;
  }
  return out;
}

/**
 * One stream's output as whole lines, each with its newline: what LineSplitter gives line by line
 * (a partial last line held back, a line past MAX_SPLIT_LINE_CHARS cut and the rest of it dropped,
 * a `\r` before the newline removed), but all the whole lines of a chunk as one string.
 */
export class ChunkLines {
  private pending = '';
  /** The current line was already handed on cut; its remainder is skipped. */
  private dropping = false;

  constructor(private readonly onLines: (text: string) => void) {}

  push(chunk: string): void {
    let start = 0;
    if (this.dropping) {
      const nl = chunk.indexOf('\n');
      if (nl === -1) return;
      this.dropping = false;
      start = nl + 1;
    }
    const last = chunk.lastIndexOf('\n');
    if (last >= start) {
      this.emit(this.pending + chunk.slice(start, last + 1));
      this.pending = '';
      start = last + 1;
    }
    if (start === chunk.length) return;
    this.pending += chunk.slice(start);
    if (this.pending.length > MAX_SPLIT_LINE_CHARS) {
      this.onLines(`${this.pending.slice(0, MAX_SPLIT_LINE_CHARS)}${CUT}\n`);
      this.pending = '';
      this.dropping = true;
    }
  }

  /** The stream ended: a last line without a newline goes too. */
  flush(): void {
    if (this.pending !== '' && !this.dropping) this.emit(`${this.pending}\n`);
    this.pending = '';
    this.dropping = false;
  }

  private emit(text: string): void {
    const cut = text.length > MAX_SPLIT_LINE_CHARS ? cutLongLines(text) : text;
    this.onLines(cut.includes('\r') ? cut.replace(/\r\n/g, '\n') : cut);
  }
}

export class ProgressBatcher {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private lastEmit = -Infinity;

  constructor(
    private readonly emit: (text: string) => void,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
    private readonly maxChars = PROGRESS_MAX_CHARS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whole lines, each with its newline (a piece is one add or several, at most maxChars unless one add is longer). */
  add(lines: string): void {
    if (this.pending !== '' && this.pending.length + lines.length > this.maxChars) this.flush();
    this.pending += lines;
    if (this.pending.length >= this.maxChars) return this.flush();
    if (this.timer) return;
    const wait = this.lastEmit + this.intervalMs - this.now();
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Hands on what is waiting (the command ended, or the interval passed). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.lastEmit = this.now();
    this.emit(text);
  }
}
