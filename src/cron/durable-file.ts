import { errorMessage } from '../util/error-message.js';
import { makeEntry, resumeAfter, scheduleFrom, type ScheduleTable } from './schedule-table.js';
import type { CronStore } from './store.js';
import type { CronTask } from './types.js';

export class CronError extends Error {
  override readonly name = 'CronError';
}

export type CronNotify = (level: 'info' | 'warning' | 'error', message: string) => void;

/** The shared file of durable tasks, as the scheduler sees it: what it last read, and its problem. */
export interface DurableFile {
  readonly path: string;
  /** The file's problem when it cannot be read (reported once per distinct problem). */
  readonly error: string | undefined;
  /** True when the file changed since it was last read or written here. */
  changed(): boolean;
  /** Reads the file; on failure reports once, remembers the problem and returns undefined. */
  load(): CronTask[] | undefined;
  /** Read-modify-write. Refuses (throws CronError) rather than overwrite a file it cannot read. */
  mutate(change: (tasks: CronTask[]) => CronTask[]): void;
}

export function createDurableFile(store: CronStore, notify: CronNotify): DurableFile {
  let signature: string | undefined;
  let error: string | undefined;
  return {
    path: store.path,
    get error() {
      return error;
    },
    changed: () => store.signature() !== signature,
    load() {
      signature = store.signature();
      try {
        const tasks = store.load();
        error = undefined;
        return tasks;
      } catch (err) {
        const message = errorMessage(err);
        if (message !== error) notify('error', `Scheduled tasks: ${message}`);
        error = message;
        return undefined;
      }
    },
    mutate(change) {
      let current: CronTask[];
      try {
        current = store.load();
      } catch (err) {
        throw new CronError(`${errorMessage(err)} (not overwriting it)`);
      }
      store.save(change(current));
      signature = store.signature();
      error = undefined;
    },
  };
}

/** Brings the table's durable entries in line with the file (another cairn may have changed it). */
export function syncDurable(table: ScheduleTable, tasks: readonly CronTask[], now: number, file: Pick<DurableFile, 'path'>, notify: CronNotify): void {
  const seen = new Set<string>();
  for (const task of tasks) {
    seen.add(task.id);
    const existing = table.get(task.id);
    if (existing?.task.durable) {
      existing.task = task;
      continue;
    }
    let entry;
    try {
      entry = makeEntry(task);
    } catch (err) {
      notify('warning', `Scheduled task ${task.id} in ${file.path} is skipped: ${errorMessage(err)}`);
      continue;
    }
    scheduleFrom(entry, resumeAfter(task, now), now);
    table.set(task.id, entry);
  }
  for (const [id, e] of table) if (e.task.durable && !seen.has(id)) table.delete(id);
}
