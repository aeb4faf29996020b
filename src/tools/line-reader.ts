import type { FileHandle } from 'node:fs/promises';

/** Whole lines read from a file, a block at a time. */
export interface LineBlock {
  /** 1-based number of the block's first line. */
  readonly firstLine: number;
  readonly lineCount: number;
  /** The lines, each ending in `\n` but perhaps the file's last; a line over maxLineBytes keeps only its start. */
  readonly data: Buffer;
  /** Lines that were cut: line number -> the line's full length in bytes. */
  readonly cut: ReadonlyMap<number, number>;
}

export interface LineReadOptions {
  readonly signal: AbortSignal;
  /** A line keeps at most this many bytes in memory; the rest is only counted. */
  readonly maxLineBytes: number;
  /** A block is handed out once it holds about this many bytes. */
  readonly blockBytes?: number;
}

const DEFAULT_BLOCK_BYTES = 1024 * 1024;

/** Steps back from `at` to the start of a UTF-8 character, so a cut line never ends in half a character. */
function charBoundary(buf: Buffer, from: number, at: number): number {
  let i = at;
  while (i > from && i < buf.length && (buf.readUInt8(i) & 0xc0) === 0x80) i--;
  return i;
}

/**
 * Reads a file as blocks of whole lines with bounded memory, whatever the file holds: a 600 MB line costs
 * maxLineBytes, not 600 MB (a whole-line reader threw RangeError: Invalid string length). Stops early,
 * without an error, when the signal aborts; callers check the signal.
 */
export async function* readLineBlocks(handle: FileHandle, opts: LineReadOptions): AsyncGenerator<LineBlock> {
  const blockBytes = opts.blockBytes ?? DEFAULT_BLOCK_BYTES;
  const chunk = Buffer.allocUnsafe(blockBytes);
  let position = 0;
  let parts: Buffer[] = [];
  let partsBytes = 0;
  let cut = new Map<number, number>();
  let blockFirst = 1;
  let lineNo = 1;
  let lineKept = 0; // bytes of the current line held in parts
  let lineBytes = 0; // bytes of the current line seen so far

  const take = (view: Buffer, from: number, to: number): void => {
    if (to <= from) return;
    parts.push(Buffer.from(view.subarray(from, to))); // a copy: chunk is reused by the next read
    partsBytes += to - from;
  };
  const block = (): LineBlock => {
    const out = { firstLine: blockFirst, lineCount: lineNo - blockFirst, data: Buffer.concat(parts, partsBytes), cut };
    parts = [];
    partsBytes = 0;
    cut = new Map();
    blockFirst = lineNo;
    return out;
  };

  for (;;) {
    if (opts.signal.aborted) return;
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const view = chunk.subarray(0, bytesRead);
    let runStart = 0; // the bytes from here on are copied in one go, not line by line
    let pos = 0;
    for (;;) {
      const nl = view.indexOf(10, pos);
      const end = nl === -1 ? view.length : nl;
      const room = opts.maxLineBytes - lineKept;
      if (end - pos > room) {
        take(view, runStart, charBoundary(view, pos, pos + room));
        lineKept = opts.maxLineBytes;
        runStart = end; // the rest of the line is skipped; its newline starts the next run
      } else {
        lineKept += end - pos;
      }
      lineBytes += end - pos;
      if (nl === -1) {
        take(view, runStart, view.length);
        break;
      }
      if (lineBytes > opts.maxLineBytes) cut.set(lineNo, lineBytes);
      lineNo++;
      lineKept = 0;
      lineBytes = 0;
      pos = nl + 1;
      if (partsBytes + (pos - runStart) >= blockBytes) {
        take(view, runStart, pos);
        runStart = pos;
        yield block();
        if (opts.signal.aborted) return;
      }
    }
  }
  if (lineBytes > 0) {
    // The last line has no newline.
    if (lineBytes > opts.maxLineBytes) cut.set(lineNo, lineBytes);
    lineNo++;
  }
  if (lineNo > blockFirst) yield block();
}

/** A block's lines as text, without their line endings. */
export function blockLines(block: LineBlock): string[] {
  const lines = block.data.toString('utf8').split('\n');
  if (lines.length > block.lineCount) lines.length = block.lineCount; // the split after the last newline
  for (const [i, line] of lines.entries()) {
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  return lines;
}
