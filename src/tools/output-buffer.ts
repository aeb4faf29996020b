/**
 * Keeps a command's output within a character budget: the head and the tail survive, the middle is
 * dropped with a marker. Memory stays bounded however much the command prints.
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly half: number;

  constructor(private readonly cap: number) {
    this.half = Math.floor(cap / 2);
  }

  append(text: string): void {
    this.total += text.length;
    if (this.head.length < this.half) {
      const room = this.half - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === '') return;
    this.tail += text;
    // Trim lazily so appends stay amortised O(n); the tail only ever needs its last cap - half chars.
    if (this.tail.length > 2 * this.cap) this.tail = this.tail.slice(-(this.cap - this.half));
  }

  get length(): number {
    return this.total;
  }

  toString(): string {
    if (this.total <= this.cap) return this.head + this.tail;
    const tail = this.tail.slice(-(this.cap - this.half));
    const omitted = this.total - this.head.length - tail.length;
    return `${this.head}\n... ${omitted} chars omitted (to see them, redirect the output to a file and read it with read_file) ...\n${tail}`;
  }
}

/** A line longer than this is shown cut: a command printing no newline must not grow one string without end. */
export const MAX_SPLIT_LINE_CHARS = 64 * 1024;

/**
 * Splits a stream of chunks into whole lines, holding back a partial last line until it completes. Only the
 * new chunk is searched for newlines (re-splitting the held part made a long line cost quadratic time), and
 * a line past MAX_SPLIT_LINE_CHARS is emitted cut, the rest of it dropped up to its newline.
 */
export class LineSplitter {
  private pending = '';
  /** The current line was already emitted cut; its remainder is skipped. */
  private dropping = false;

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      if (!this.dropping) this.emit(this.pending + chunk.slice(start, nl));
      this.pending = '';
      this.dropping = false;
      start = nl + 1;
    }
    if (this.dropping || start === chunk.length) return;
    this.pending += chunk.slice(start);
    if (this.pending.length > MAX_SPLIT_LINE_CHARS) {
      this.onLine(`${this.pending.slice(0, MAX_SPLIT_LINE_CHARS)}… [line cut]`);
      this.pending = '';
      this.dropping = true;
    }
  }

  flush(): void {
    if (this.pending !== '' && !this.dropping) this.emit(this.pending);
    this.pending = '';
    this.dropping = false;
  }

  private emit(line: string): void {
    const cut = line.length > MAX_SPLIT_LINE_CHARS ? `${line.slice(0, MAX_SPLIT_LINE_CHARS)}… [line cut]` : line;
    this.onLine(cut.replace(/\r$/, ''));
  }
}
