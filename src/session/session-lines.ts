// Session files are read line by line from a stream of bytes, never as one string: a string
// cannot pass 512 MiB in V8, so one huge record (or a huge file) made reading fail with an error
// that named no file. A line over the limit is skipped and reported with its number.
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { describeFileType, FileReadError } from '../util/read-text-file.js';

/** A longer line is not parsed: a record is one event, and real ones stay far below this. */
export const MAX_SESSION_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const HEAD_BYTES = 200;

export type SessionLine =
  | { number: number; text: string }
  /** Over the limit: its length and first bytes (enough to see its record type). */
  | { number: number; tooLong: number; head: string };

export interface ReadLinesOptions {
  maxLineBytes?: number;
}

/**
 * The lines of a file, numbered from 1, without their newline; a BOM before the first is dropped.
 * Blank lines are yielded too (the caller skips them). A FIFO or device is never read.
 * A missing file rejects with the ENOENT error itself, so callers can tell "no such session".
 */
export async function* readSessionLines(file: string, options: ReadLinesOptions = {}): AsyncGenerator<SessionLine> {
  const max = options.maxLineBytes ?? MAX_SESSION_LINE_BYTES;
  const stat = await fs.stat(file);
  if (!stat.isFile()) throw new FileReadError(file, `is ${describeFileType(stat)}, not a session file; not read`, true);
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw new FileReadError(file, `is ${describeFileType(opened)}, not a session file; not read`, true);
    const buffer = Buffer.alloc(CHUNK_BYTES);
    const line = new LineAccumulator(max);
    let number = 1;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(10, start);
        if (newline === -1) {
          line.add(chunk.subarray(start));
          break;
        }
        line.add(chunk.subarray(start, newline));
        yield line.take(number++);
        start = newline + 1;
      }
    }
    // The last line, when the file does not end with a newline (a write cut off by a crash).
    if (!line.empty) yield line.take(number);
  } finally {
    await handle.close();
  }
}

/** Bytes of the current line, kept only up to the limit; past it only counted. */
class LineAccumulator {
  private parts: Buffer[] = [];
  private length = 0;
  private head: Buffer | undefined;
  private over = false;

  constructor(private readonly max: number) {}

  get empty(): boolean {
    return this.length === 0;
  }

  add(bytes: Buffer): void {
    if (bytes.length === 0) return;
    // Copies: the read buffer is reused for the next chunk.
    this.head ??= Buffer.from(bytes.subarray(0, HEAD_BYTES));
    this.length += bytes.length;
    if (this.over) return;
    if (this.length > this.max) {
      this.over = true;
      this.parts = [];
      return;
    }
    this.parts.push(Buffer.from(bytes));
  }

  take(number: number): SessionLine {
    const out: SessionLine = this.over
      ? { number, tooLong: this.length, head: (this.head ?? Buffer.alloc(0)).toString('utf8') }
      : { number, text: Buffer.concat(this.parts, this.length).toString('utf8') };
    this.parts = [];
    this.length = 0;
    this.head = undefined;
    this.over = false;
    if (number === 1 && 'text' in out && out.text.charCodeAt(0) === 0xfeff) out.text = out.text.slice(1);
    return out;
  }
}
