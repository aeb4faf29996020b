import { parseCron, type CronSchedule } from './expression.js';
import { jitterMinutes, MAX_JITTER_MINUTES, MINUTE_MS, nextRun } from './timing.js';
import type { CronEvent, CronTask, CronTaskInfo } from './types.js';

// The scheduler's in-memory table: each task with its parsed schedule and next fire time. The
// other cron modules (file sync, expiry, missed runs, firing) read and change it.

export interface Entry {
  task: CronTask;
  schedule: CronSchedule;
  jitter: number;
  /** Next fire time (jitter included); undefined when the expression has no future run. */
  next?: { base: number; fireAt: number };
  lastFiredMinute?: number;
}

export type ScheduleTable = Map<string, Entry>;

/** Emits a task's cron event (created, fired, deleted, ...). */
export type EmitCron = (task: CronTask, status: CronEvent['status'], result?: string) => void;

export function makeEntry(task: CronTask, schedule: CronSchedule = parseCron(task.cron)): Entry {
  return { task, schedule, jitter: jitterMinutes(task) };
}

/** Schedules the first run after `after` (cron time and fire time both later). */
export function scheduleFrom(e: Entry, baseAfter: number, fireAfter: number): void {
  const run = nextRun(e.schedule, e.jitter, baseAfter, fireAfter);
  if (run) e.next = run;
  else delete e.next;
}

/**
 * Where a loaded task's schedule resumes: after its last run, but no further back than the
 * jitter window, so a run whose fire time is still ahead is kept and older ones are not replayed
 * (they are what missed-run detection reports).
 */
export function resumeAfter(task: CronTask, now: number): number {
  return Math.max(task.createdAt, task.lastRunAt ?? -Infinity, now - MAX_JITTER_MINUTES * MINUTE_MS);
}

export function entryInfo(e: Entry): CronTaskInfo {
  return e.next ? { ...e.task, nextRunAt: e.next.fireAt } : { ...e.task };
}
