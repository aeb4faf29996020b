import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface TuiLog {
  readonly path: string;
  write(message: string): void;
  /** Why the log could not be written, if it could not (said on stderr at exit). */
  readonly problem: string | undefined;
}

/** One log file per run under $CAIRN_HOME/logs; writes are synchronous so a crash still leaves them. */
export function createTuiLog(cairnHome: string, now: Date = new Date()): TuiLog {
  const dir = join(cairnHome, 'logs');
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const path = join(dir, `tui-${stamp}-${process.pid}.log`);
  let ready = false;
  let problem: string | undefined;
  return {
    path,
    get problem() {
      return problem;
    },
    write(message) {
      try {
        if (!ready) mkdirSync(dir, { recursive: true });
        ready = true;
        appendFileSync(path, `${new Date().toISOString()} ${message}\n`);
      } catch (error) {
        // The log is a diagnostic aid: losing it must not take the UI down. No warning now: while
        // the app owns the screen, warnings are themselves routed to this log.
        problem ??= `could not write ${path}: ${(error as Error).message}`;
      }
    },
  };
}
