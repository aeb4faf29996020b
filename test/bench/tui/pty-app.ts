// A program in a real pseudo-terminal (node-pty) whose output is counted byte by byte and fed
// to a headless xterm, so the harness knows what is on screen and when it got there.
import xterm from '@xterm/headless';
import pty from 'node-pty';
import { procStats, type ProcStats } from './proc-stats.js';

const { Terminal } = xterm;
type XTerm = InstanceType<typeof Terminal>;

export interface PtyAppOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  columns?: number;
  rows?: number;
}

interface Waiter {
  predicate: (screen: string) => boolean;
  resolve: (at: number) => void;
}

export class PtyApp {
  /** Bytes the program wrote to the terminal so far. */
  bytes = 0;
  /** performance.now() when the last byte arrived. */
  lastByteAt = 0;
  readonly startedAt: number;
  private readonly term: XTerm;
  private readonly proc: pty.IPty;
  private waiters: Waiter[] = [];
  private exitCode: number | undefined;
  private readonly exited: Promise<number>;

  constructor(options: PtyAppOptions) {
    const columns = options.columns ?? 120;
    const rows = options.rows ?? 40;
    this.term = new Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0 });
    this.startedAt = performance.now();
    this.proc = pty.spawn(options.file, options.args, {
      name: 'xterm-256color',
      cols: columns,
      rows,
      cwd: options.cwd,
      env: options.env,
      encoding: null,
    });
    this.proc.onData((data: string | Buffer) => {
      const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      this.bytes += chunk.length;
      this.lastByteAt = performance.now();
      this.term.write(chunk, () => this.check(performance.now()));
    });
    this.exited = new Promise((resolve) => {
      this.proc.onExit(({ exitCode }) => {
        this.exitCode = exitCode;
        resolve(exitCode);
      });
    });
  }

  get pid(): number {
    return this.proc.pid;
  }

  stats(): ProcStats {
    return procStats(this.pid);
  }

  /** The visible rows, joined by newlines, trailing blanks trimmed. */
  screen(): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  write(keys: string): void {
    this.proc.write(keys);
  }

  /**
   * Resolves with performance.now() at the moment the parsed screen first satisfied the predicate
   * (checked after every chunk the terminal parses).
   */
  waitForScreen(predicate: (screen: string) => boolean, what: string, timeoutMs = 30_000): Promise<number> {
    if (predicate(this.screen())) return Promise.resolve(performance.now());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${this.exitCode !== undefined ? ` (exited ${this.exitCode})` : ''}; the screen was:\n${this.screen()}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Waits until nothing has been written for `quietMs`. */
  async waitQuiet(quietMs: number, timeoutMs = 10_000): Promise<void> {
    const start = performance.now();
    for (;;) {
      const since = performance.now() - Math.max(this.lastByteAt, start);
      if (since >= quietMs) return;
      if (performance.now() - start > timeoutMs) throw new Error(`output did not go quiet for ${quietMs} ms within ${timeoutMs} ms`);
      await sleep(Math.max(5, quietMs - since));
    }
  }

  async stop(): Promise<void> {
    if (this.exitCode === undefined) {
      this.proc.kill('SIGTERM');
      const killer = setTimeout(() => this.exitCode === undefined && this.proc.kill('SIGKILL'), 3000);
      await this.exited;
      clearTimeout(killer);
    }
    this.term.dispose();
  }

  private check(at: number): void {
    if (this.waiters.length === 0) return;
    const screen = this.screen();
    const done = this.waiters.filter((w) => w.predicate(screen));
    if (done.length === 0) return;
    this.waiters = this.waiters.filter((w) => !done.includes(w));
    for (const w of done) w.resolve(at);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
