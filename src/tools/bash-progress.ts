// A running command's lines, handed on as progress in pieces: at most one piece per interval (the
// first line after a quiet spell at once), or sooner once a piece reaches its size cap. One
// progress event per line made a 100,000-line command 100,000 events, each a store update.

/** At most one piece per this long, beside the size cap. */
export const PROGRESS_INTERVAL_MS = 50;
/** A piece is handed on once it holds this many characters, whatever the time. */
export const PROGRESS_MAX_CHARS = 64 * 1024;

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

  /** One whole line, without its newline (the piece gets it). */
  line(line: string): void {
    this.pending += `${line}\n`;
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
