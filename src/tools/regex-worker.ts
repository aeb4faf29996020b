import { Worker } from 'node:worker_threads';

/** One block of whole lines to search (a small file, or a part of a big one). */
export interface BlockRequest {
  readonly data: Buffer;
  readonly firstLine: number;
  readonly lineCount: number;
}

export interface BlockHits {
  count: number;
  lines: { no: number; text: string }[];
}

export type BatchOutcome =
  | { kind: 'done'; results: BlockHits[] }
  /** `index` is the block that was running when the deadline passed. */
  | { kind: 'timeout'; index: number }
  | { kind: 'aborted' }
  | { kind: 'failed'; message: string };

/** 'any' stops each block at its first match, 'count' counts, 'lines' also returns matching lines, up to maxLines in all. */
export type SearchMode = 'any' | 'count' | 'lines';

interface Reply {
  id: number;
  results?: { count: number; hits: [number, string][] }[];
  error?: string;
}

// Plain JavaScript run with `eval`, so the worker survives bundling into one file (a separate worker
// module would not be emitted by esbuild). It splits each block into lines and tests each line; before a
// block it writes the block's index to shared memory, so a deadline can name the file that ran away.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const progress = new Int32Array(workerData.progress);
let regex;
let key;
parentPort.on('message', (msg) => {
  try {
    if (key !== msg.flags + '/' + msg.source) {
      regex = new RegExp(msg.source, msg.flags);
      key = msg.flags + '/' + msg.source;
    }
    const maxChars = msg.maxChars;
    const results = [];
    let room = msg.maxLines;
    for (let b = 0; b < msg.blocks.length; b++) {
      Atomics.store(progress, 0, b);
      const block = msg.blocks[b];
      const data = Buffer.from(block.data.buffer, block.data.byteOffset, block.data.byteLength);
      const lines = data.toString('utf8').split('\\n');
      let count = 0;
      const hits = [];
      for (let i = 0; i < block.lineCount && i < lines.length; i++) {
        let line = lines[i];
        if (line.endsWith('\\r')) line = line.slice(0, -1);
        if (!regex.test(line)) continue;
        count++;
        if (msg.mode === 'any') break;
        if (msg.mode === 'lines') {
          if (room <= 0) break;
          hits.push([block.firstLine + i, line.length > maxChars ? line.slice(0, maxChars) : line]);
          room--;
        }
      }
      results.push({ count, hits });
    }
    parentPort.postMessage({ id: msg.id, results });
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
`;

export interface RegexSearchOptions {
  /** A batch that takes longer than this ends the search: the pattern is backtracking catastrophically. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Matching lines come back cut to this many characters (plus one, so the caller can tell). */
  readonly maxChars: number;
}

interface Thread {
  worker: Worker;
  /** The index of the block the worker is on, written by the worker, read when a deadline passes. */
  progress: Int32Array;
}

// Idle threads kept for the next search: starting one costs ~30 ms, more than most searches.
const idle: Thread[] = [];
const MAX_IDLE = 2;

function spawn(): Thread {
  const progress = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { progress: progress.buffer },
    // A runaway search must not take the whole process's memory with it.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  // An error with no search waiting would otherwise be thrown in the main thread; a search in flight has its own listener.
  worker.on('error', () => undefined);
  const thread = { worker, progress };
  worker.once('exit', () => {
    const at = idle.indexOf(thread);
    if (at !== -1) idle.splice(at, 1);
  });
  return thread;
}

/**
 * Runs a JavaScript regular expression off the main thread. A pattern like `(a+)+$` can run for hours on
 * one line and no JavaScript can interrupt it; in a worker, a deadline or the abort signal terminates the
 * thread, and the main thread keeps answering keys and signals meanwhile. Each search owns its thread
 * while it runs, so a deadline in one never cuts another short.
 */
export class RegexSearch {
  private thread: Thread | undefined;
  private nextId = 0;

  constructor(
    private readonly source: string,
    private readonly flags: string,
    private readonly opts: RegexSearchOptions,
  ) {}

  /** Searches blocks in order in the worker; the deadline applies to the whole batch. */
  search(blocks: readonly BlockRequest[], mode: SearchMode, maxLines: number): Promise<BatchOutcome> {
    if (this.opts.signal.aborted) return Promise.resolve({ kind: 'aborted' });
    if (!this.thread) {
      this.thread = idle.pop() ?? spawn();
      this.thread.worker.ref();
    }
    const { worker, progress } = this.thread;
    const id = this.nextId++;
    return new Promise<BatchOutcome>((resolve) => {
      const finish = (outcome: BatchOutcome, kill: boolean): void => {
        clearTimeout(timer);
        this.opts.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (kill) this.kill();
        resolve(outcome);
      };
      const onMessage = (reply: Reply): void => {
        if (reply.id !== id) return;
        if (reply.error !== undefined) return finish({ kind: 'failed', message: reply.error }, false);
        const results = (reply.results ?? []).map((r) => ({ count: r.count, lines: r.hits.map(([no, text]) => ({ no, text })) }));
        finish({ kind: 'done', results }, false);
      };
      const onError = (err: Error): void => finish({ kind: 'failed', message: err.message }, true);
      const onExit = (): void => finish({ kind: 'failed', message: 'the search thread stopped unexpectedly' }, true);
      const onAbort = (): void => finish({ kind: 'aborted' }, true);
      const timer = setTimeout(() => finish({ kind: 'timeout', index: Atomics.load(progress, 0) }, true), this.opts.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      this.opts.signal.addEventListener('abort', onAbort, { once: true });
      Atomics.store(progress, 0, 0);
      const payload = blocks.map((b) => ({ data: b.data, firstLine: b.firstLine, lineCount: b.lineCount }));
      worker.postMessage({ id, source: this.source, flags: this.flags, maxChars: this.opts.maxChars + 1, blocks: payload, mode, maxLines });
    });
  }

  /** Hands a healthy thread back for the next search; an idle thread does not keep the process alive. */
  close(): void {
    const thread = this.thread;
    this.thread = undefined;
    if (!thread) return;
    if (idle.length >= MAX_IDLE) {
      void thread.worker.terminate();
      return;
    }
    thread.worker.unref();
    idle.push(thread);
  }

  private kill(): void {
    const thread = this.thread;
    this.thread = undefined;
    // terminate() stops even a regex in the middle of backtracking; nothing waits for it to finish.
    void thread?.worker.terminate();
  }
}
