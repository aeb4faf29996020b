// Keys typed while cairn starts, before its raw mode is on, wait in the terminal's line buffer,
// where the terminal turns Enter (CR) into a newline (ICRNL). They reach the app in its first
// read, and a newline there would sit in the prompt box unsent: in that read alone a newline is
// Enter. Later reads keep their meaning (Ctrl+J inserts a line break).

/** The part of a TTY input stream the type-ahead watch needs (process.stdin in the app). */
export interface TypeAheadInput {
  on(event: 'readable', listener: () => void): unknown;
  off(event: 'readable', listener: () => void): unknown;
  read(): string | Buffer | null;
  unshift(chunk: string | Buffer): void;
}

/** The first read with each newline (an Enter typed in line mode) made an Enter (CR). */
export function typeAheadKeys<T extends string | Buffer>(chunk: T): T {
  // A newline byte is never part of a multibyte UTF-8 character: a Buffer is mapped byte for byte.
  if (typeof chunk === 'string') return chunk.replaceAll('\n', '\r') as T;
  return Buffer.from(chunk.map((byte) => (byte === 0x0a ? 0x0d : byte))) as T;
}

/**
 * Takes the first chunk the terminal delivers, makes its newlines Enter, and puts it back for Ink
 * to read: every byte is handed over, in order. Attached before Ink's own 'readable' listener, so
 * it runs first within the same event; removes itself after that chunk. Returns a disposer.
 */
export function watchTypeAhead(input: TypeAheadInput): () => void {
  const onReadable = (): void => {
    const chunk = input.read();
    if (chunk === null) return;
    input.off('readable', onReadable);
    input.unshift(typeAheadKeys(chunk));
  };
  input.on('readable', onReadable);
  return () => input.off('readable', onReadable);
}
