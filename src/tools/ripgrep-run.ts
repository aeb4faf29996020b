import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

/** One record of ripgrep's `--null` output: a path, and for `-c` and content output what follows it on the line. */
export interface RgRecord {
  readonly path: string;
  readonly value?: Buffer;
}

export interface RgOutcome {
  /** The exit code; null when killed (stopped early or aborted); -1 when it could not start. */
  readonly code: number | null;
  /** ripgrep's own error lines (not its debug log). */
  readonly errors: readonly string[];
  /** Symlinks the walk came across and did not follow, as ripgrep named them (from its debug log). */
  readonly symlinks: readonly string[];
}

export interface RgRun {
  /** The records in ripgrep's order, read as they arrive (the child waits while they are not read). */
  records(): AsyncGenerator<RgRecord>;
  /** The same records a chunk of output at a time: one await per chunk, not per record (file lists of 50,000+). */
  batches(): AsyncGenerator<RgRecord[]>;
  /** Ends the search now (results are enough, or the user pressed Esc). */
  stop(): void;
  readonly done: Promise<RgOutcome>;
}

export interface RgRunOptions {
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Whether each path is followed by a value ending in a newline (`-c`, content), not only by NUL (`-l`, `--files`). */
  readonly withValue: boolean;
}

// rg --debug names each symlink it passes over: `... haystack.rs:70: ignoring ./a/link: failed to pass haystack
// filter: file type: Some(FileType { ... is_symlink: true ...`. Links are not followed, as in the JavaScript walk;
// the caller decides about each one the way that walk does.
const SYMLINK_LINE = /\bignoring (.*): failed to pass haystack filter: file type: Some\(FileType \{[^}]*is_symlink: true/;
const MAX_ERRORS = 20;

/**
 * Runs ripgrep with the given arguments (the caller puts every pattern and path after `-e` or `--`, and passes
 * `--no-config` so a repository's RIPGREP_CONFIG_PATH cannot add options) and streams its NUL-separated output.
 * The abort signal kills the child at once.
 */
export function runRipgrep(bin: string, args: readonly string[], opts: RgRunOptions): RgRun {
  const child = spawn(bin, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  const errors: string[] = [];
  const symlinks: string[] = [];
  let killed = false;
  const stop = (): void => {
    if (killed) return;
    killed = true;
    child.kill();
  };
  const onAbort = (): void => stop();
  opts.signal.addEventListener('abort', onAbort, { once: true });
  if (opts.signal.aborted) stop();

  const stderr = new StringDecoder('utf8');
  let partial = '';
  const stderrLines = (text: string): void => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const link = SYMLINK_LINE.exec(line);
      if (link?.[1] !== undefined) symlinks.push(link[1]);
      else if (!line.includes('DEBUG|') && !line.includes('TRACE|') && line.trim() !== '' && errors.length < MAX_ERRORS) errors.push(line);
    }
  };
  child.stderr.on('data', (chunk: Buffer) => stderrLines(stderr.write(chunk)));

  const done = new Promise<RgOutcome>((resolve) => {
    child.once('error', (err) => {
      opts.signal.removeEventListener('abort', onAbort);
      resolve({ code: -1, errors: [err.message], symlinks });
    });
    child.once('close', (code) => {
      opts.signal.removeEventListener('abort', onAbort);
      stderrLines(stderr.end() + '\n');
      resolve({ code: killed ? null : code, errors, symlinks });
    });
  });

  async function* batches(): AsyncGenerator<RgRecord[]> {
    let pending: Buffer = Buffer.alloc(0);
    let drained = false;
    try {
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const batch: RgRecord[] = [];
        let at = 0;
        for (;;) {
          const nul = pending.indexOf(0, at);
          if (nul === -1) break;
          if (!opts.withValue) {
            batch.push({ path: pending.toString('utf8', at, nul) });
            at = nul + 1;
            continue;
          }
          const nl = pending.indexOf(10, nul + 1);
          if (nl === -1) break;
          batch.push({ path: pending.toString('utf8', at, nul), value: pending.subarray(nul + 1, nl) });
          at = nl + 1;
        }
        pending = pending.subarray(at);
        if (batch.length > 0) yield batch;
      }
      drained = true;
    } finally {
      // Leaving early (enough results, an error) must not leave ripgrep running.
      if (!drained) stop();
    }
  }

  async function* records(): AsyncGenerator<RgRecord> {
    for await (const batch of batches()) yield* batch;
  }

  return { records, batches, stop, done };
}
