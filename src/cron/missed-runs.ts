import { errorMessage } from '../util/error-message.js';
import type { CronNotify, DurableFile } from './durable-file.js';
import type { EmitCron, ScheduleTable } from './schedule-table.js';
import { MINUTE_MS, runsBetween } from './timing.js';
import type { CronTask, MissedTask } from './types.js';

export const MISSED_LOOKBACK_MS = 24 * 60 * MINUTE_MS;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Local "YYYY-MM-DD HH:MM". */
export function formatLocalTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function missedNotice(task: CronTask, dueAt: number): string {
  return `[Missed scheduled task ${task.id} "${task.cron}": ${task.prompt} — it was due at ${formatLocalTime(dueAt)}; decide whether to catch up]`;
}

/**
 * Durable tasks that should have fired while no cairn was firing here (look-back capped at 24 h).
 * Each is recorded as dealt with (reported), so the next start does not report it again; a
 * missed one-shot task is done once reported.
 */
export function detectMissed(ctx: { table: ScheduleTable; file: DurableFile; emit: EmitCron; notify: CronNotify }, now: number): MissedTask[] {
  const found: MissedTask[] = [];
  const handled = new Map<string, number>();
  for (const e of ctx.table.values()) {
    if (!e.task.durable) continue;
    const since = Math.max(e.task.lastRunAt ?? e.task.createdAt, now - MISSED_LOOKBACK_MS);
    const { count, last } = runsBetween(e.schedule, e.jitter, since, now);
    if (!last) continue;
    found.push({ task: { ...e.task }, dueAt: last.fireAt, missedCount: count, prompt: missedNotice(e.task, last.fireAt) });
    handled.set(e.task.id, last.fireAt);
  }
  if (found.length === 0) return found;
  try {
    ctx.file.mutate((tasks) =>
      tasks.flatMap((t) => {
        const at = handled.get(t.id);
        if (at === undefined) return [t];
        return t.recurring ? [{ ...t, lastRunAt: at }] : [];
      }),
    );
  } catch (err) {
    ctx.notify('error', `Scheduled tasks: could not record missed runs: ${errorMessage(err)}`);
  }
  for (const m of found) {
    const e = ctx.table.get(m.task.id);
    if (e && m.task.recurring) e.task = { ...e.task, lastRunAt: m.dueAt };
    else ctx.table.delete(m.task.id);
    ctx.emit(m.task, 'missed', m.prompt);
  }
  return found;
}
