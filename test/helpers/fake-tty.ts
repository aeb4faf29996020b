import { EventEmitter } from 'node:events';

/** A TTY stdin for Ink: what is written to it arrives as typed input. */
export class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read(): string | null {
    const d = this.data;
    this.data = null;
    return d;
  }
  /** As a real stream's unshift: a chunk put back is what the next read returns, ahead of the rest. */
  unshift(chunk: string | Buffer): void {
    this.data = String(chunk) + (this.data ?? '');
  }
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/** A TTY stdout that keeps every chunk written, in order. */
export class FakeStdout extends EventEmitter {
  isTTY = true;
  chunks: string[] = [];
  constructor(
    public columns = 100,
    public rows = 30,
  ) {
    super();
  }
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  get out(): string {
    return this.chunks.join('');
  }
}
