import type { Readable } from 'node:stream';

/** How long `-p "prompt"` waits for a first byte on a piped stdin that may never send one (Claude Code waits 3 s too). */
export const STDIN_FIRST_BYTE_MS = 3_000;

export interface PipedInput {
  readonly text: string;
  /** Nothing arrived, and the pipe did not end, before the wait ran out: the run goes on without it. */
  readonly gaveUp: boolean;
}

/**
 * What was piped into a headless run. With no prompt on the command line stdin is the prompt: it is read to its
 * end however long that takes. With one, stdin only adds to it, and a pipe a parent process opened and never
 * writes to or closes (a spawn's default `stdio: 'pipe'`) must not hang the run: when no byte comes within
 * `firstByteMs` the read is given up. Once data flows it is read to the end.
 */
export function readPipedInput(stdin: Readable, firstByteMs: number | undefined): Promise<PipedInput> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = (gaveUp: boolean): void => {
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), gaveUp });
    };
    const onData = (chunk: Buffer | string): void => {
      clearTimeout(timer);
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    };
    const onEnd = (): void => finish(false);
    const onError = (error: Error): void => {
      clearTimeout(timer);
      reject(error);
    };
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
    if (firstByteMs !== undefined) {
      timer = setTimeout(() => {
        if (chunks.length > 0) return;
        finish(true);
        // Nothing more is read from it: let the process end without waiting for a pipe that stays open.
        stdin.destroy();
      }, firstByteMs);
    }
  });
}
