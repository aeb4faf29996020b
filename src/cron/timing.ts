import type { CronSchedule } from './expression.js';

// When a task actually fires: its cron time, pushed 1-4 minutes later when it lands on :00 or :30
// (where people's schedules pile up) so many tasks do not all fire together. The push is derived
// from the task itself, so it is the same on every run and in every process.

export const MINUTE_MS = 60_000;
export const MAX_JITTER_MINUTES = 4;

/** FNV-1a over id, cron and prompt: stable across processes and versions. */
export function jitterMinutes(task: { id: string; cron: string; prompt: string }): number {
  let h = 0x811c9dc5;
  for (const ch of `${task.id}\n${task.cron}\n${task.prompt}`) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return 1 + (h % MAX_JITTER_MINUTES);
}

/**
 * The jitter for one cron time: the task's minutes when the run minute is 0 or 30, else 0; capped
 * so a run never moves onto or past the next cron time (an every-minute task gets none).
 */
export function jitterFor(base: number, schedule: CronSchedule, taskJitter: number): number {
  const minute = new Date(base).getMinutes();
  if (minute !== 0 && minute !== 30) return 0;
  const next = schedule.nextAfter(base);
  const room = next === undefined ? MAX_JITTER_MINUTES : Math.round((next - base) / MINUTE_MS) - 1;
  return Math.max(0, Math.min(taskJitter, room)) * MINUTE_MS;
}

export interface Run {
  /** The cron time. */
  base: number;
  /** base + jitter: when it fires. */
  fireAt: number;
}

/** The first run whose cron time is after `baseAfter` and whose fire time is after `fireAfter`. */
export function nextRun(
  schedule: CronSchedule,
  taskJitter: number,
  baseAfter: number,
  fireAfter: number,
): Run | undefined {
  // Fire times only grow with cron times (jitter never passes the next cron time), so at most a
  // few cron times inside the jitter window can be skipped here.
  let base = schedule.nextAfter(baseAfter);
  for (let i = 0; base !== undefined && i < 10_000; i++) {
    const fireAt = base + jitterFor(base, schedule, taskJitter);
    if (fireAt > fireAfter) return { base, fireAt };
    base = schedule.nextAfter(base);
  }
  return undefined;
}

/** Runs whose cron time is after `baseAfter` and whose fire time is at or before `until`: how many, and the latest. */
export function runsBetween(
  schedule: CronSchedule,
  taskJitter: number,
  baseAfter: number,
  until: number,
): { count: number; last?: Run } {
  let count = 0;
  let last: Run | undefined;
  for (let base = schedule.nextAfter(baseAfter); base !== undefined && base <= until; base = schedule.nextAfter(base)) {
    const fireAt = base + jitterFor(base, schedule, taskJitter);
    if (fireAt > until) break;
    count++;
    last = { base, fireAt };
  }
  return last ? { count, last } : { count };
}
