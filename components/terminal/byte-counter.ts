// A write target that counts what would reach the terminal, for tests and benchmarks.

export interface ByteCounter {
  write(s: string): void;
  /** UTF-8 bytes written since creation or the last reset. */
  readonly bytes: number;
  /** Number of write calls since creation or the last reset. */
  readonly writes: number;
  /** Everything written, when created with `{ keep: true }` (else ''). */
  readonly text: string;
  reset(): void;
}

export function createByteCounter(options: { keep?: boolean; forward?: { write(s: string): unknown } } = {}): ByteCounter {
  let bytes = 0;
  let writes = 0;
  let chunks: string[] = [];
  return {
    write(s) {
      bytes += Buffer.byteLength(s, 'utf8');
      writes++;
      if (options.keep) chunks.push(s);
      options.forward?.write(s);
    },
    get bytes() {
      return bytes;
    },
    get writes() {
      return writes;
    },
    get text() {
      return chunks.join('');
    },
    reset() {
      bytes = 0;
      writes = 0;
      chunks = [];
    },
  };
}
