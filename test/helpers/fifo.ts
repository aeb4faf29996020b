import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';

/** A named pipe at `file` (mkfifo). Opening it to read blocks until a writer comes. */
export function makeFifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

/**
 * Opens the FIFO for writing and closes it at once, so a reader stuck in open() (code that
 * should never have opened it) gets EOF instead of blocking a thread past the test.
 */
export function releaseFifo(file: string): void {
  try {
    closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: nobody is reading; ENOENT: gone already.
  }
}
