import { errorMessage } from '../util/error-message.js';
import type { CronNotify, DurableFile } from './durable-file.js';
import type { EmitCron, ScheduleTable } from './schedule-table.js';
import { MINUTE_MS } from './timing.js';
import type { CronTask } from './types.js';

export const DEFAULT_EXPIRY_DAYS = 7;
export const DAY_MS = 24 * 60 * MINUTE_MS;

export function isExpired(task: CronTask, now: number, expiryMs: number): boolean {
  return task.recurring && now - task.createdAt >= expiryMs;
}

/**
 * Deletes recurring tasks older than the expiry. Durable ones are removed from the file by the
 * leader only (it owns writes of run state); a follower leaves them in place.
 */
export function removeExpired(
  ctx: { table: ScheduleTable; file: DurableFile; isLeader: boolean; expiryMs: number; emit: EmitCron; notify: CronNotify },
  now: number,
): void {
  const gone = [...ctx.table.values()].filter((e) => isExpired(e.task, now, ctx.expiryMs)).map((e) => e.task);
  if (gone.length === 0) return;
  const durableIds = new Set(gone.filter((t) => t.durable).map((t) => t.id));
  if (durableIds.size > 0 && ctx.isLeader) {
    try {
      ctx.file.mutate((tasks) => tasks.filter((t) => !durableIds.has(t.id)));
    } catch (err) {
      ctx.notify('error', `Scheduled tasks: could not remove expired tasks: ${errorMessage(err)}`);
      return;
    }
  }
  for (const task of gone) {
    if (task.durable && !ctx.isLeader) continue;
    ctx.table.delete(task.id);
    ctx.emit(task, 'deleted', `expired ${Math.round(ctx.expiryMs / DAY_MS)} days after creation`);
  }
}
