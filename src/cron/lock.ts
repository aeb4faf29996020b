import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// Only one cairn per workspace fires durable tasks: the one holding the workspace's cron lock, a
// file holding its PID, created with O_EXCL. A lock whose PID is gone is taken over. The lock is a
// runtime file: it lives under $CAIRN_HOME, never in the repository.

export type LockState = { leader: true } | { leader: false; holderPid: number | undefined };

export interface CronLock {
  readonly path: string;
  /** Takes the lock if free or stale; cheap enough to call every few seconds. */
  tryAcquire(): LockState;
  /** Removes the lock file if it is still ours. */
  release(): void;
}

/** A lock file without a readable PID is a holder mid-write unless it is older than this. */
const UNREADABLE_GRACE_MS = 5_000;

/** $CAIRN_HOME/locks/cron-<hash of the workspace path>.lock: one per workspace. */
export function cronLockPath(cairnHome: string, cwd: string): string {
  const id = createHash('sha256').update(path.resolve(cwd)).digest('hex').slice(0, 16);
  return path.join(cairnHome, 'locks', `cron-${id}.lock`);
}

/** true when a process with this PID exists (EPERM: it exists but is not ours). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): { pid?: number; ageMs: number } | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    const ageMs = Date.now() - fs.statSync(file).mtimeMs;
    return /^\d+$/.test(text) && Number(text) > 0 ? { pid: Number(text), ageMs } : { ageMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function createCronLock(file: string, pid: number = process.pid): CronLock {
  const create = (): boolean => {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${pid}\n`, { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  };

  return {
    path: file,
    tryAcquire() {
      // Two attempts: the second after removing a stale lock.
      for (let attempt = 0; attempt < 2; attempt++) {
        if (create()) return { leader: true };
        const holder = readHolder(file);
        if (!holder) continue; // Released between our attempt and the read.
        if (holder.pid === pid) return { leader: true };
        const stale =
          holder.pid === undefined ? holder.ageMs > UNREADABLE_GRACE_MS : !pidAlive(holder.pid);
        if (!stale) return { leader: false, holderPid: holder.pid };
        fs.rmSync(file, { force: true });
      }
      const holder = readHolder(file);
      return { leader: false, holderPid: holder?.pid };
    },
    release() {
      const holder = readHolder(file);
      if (holder?.pid === pid) fs.rmSync(file, { force: true });
    },
  };
}
