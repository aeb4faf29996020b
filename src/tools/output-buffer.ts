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
    return `${this.head}\n... ${omitted} chars omitted ...\n${tail}`;
  }
}

/** Splits a stream of chunks into whole lines, holding back a partial last line until it completes. */
export class LineSplitter {
  private pending = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    const parts = (this.pending + chunk).split('\n');
    this.pending = parts.pop() ?? '';
    for (const line of parts) this.onLine(line.replace(/\r$/, ''));
  }

  flush(): void {
    if (this.pending !== '') this.onLine(this.pending.replace(/\r$/, ''));
    this.pending = '';
  }
}
