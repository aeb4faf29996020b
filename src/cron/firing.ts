import { errorMessage } from '../util/error-message.js';
import type { CronNotify, DurableFile } from './durable-file.js';
import { scheduleFrom, type EmitCron, type Entry, type ScheduleTable } from './schedule-table.js';
import { MINUTE_MS } from './timing.js';
import type { CronTask, FiredTask } from './types.js';

/** How many fired tasks are remembered for reportAutoRun. */
const FIRED_MEMORY = 200;

export interface Firing {
  /** Fires an entry that is due: records the run, reschedules or removes it, delivers its prompt. */
  fire(e: Entry, now: number): void;
  /** Delivers a task that is in no table (/cron test). */
  fireUnscheduled(task: CronTask): FiredTask;
  /** An auto_run task's subagent finished: emits `auto_run_finished` with its result. */
  reportAutoRun(taskId: string, result: string): void;
}

export function createFiring(ctx: { table: ScheduleTable; file: DurableFile; emit: EmitCron; notify: CronNotify; onFire(fired: FiredTask): void }): Firing {
  /** Tasks that fired recently, so reportAutoRun can name a one-shot task that is already gone. */
  const fired = new Map<string, CronTask>();

  const remember = (task: CronTask): void => {
    fired.set(task.id, task);
    if (fired.size > FIRED_MEMORY) fired.delete(fired.keys().next().value as string);
  };

  const deliver = (done: FiredTask): void => {
    try {
      ctx.onFire(done);
    } catch (err) {
      ctx.notify('error', `Scheduled task ${done.task.id} could not be delivered: ${errorMessage(err)}`);
    }
  };

  /** Writes the run to the shared file. False when another cairn deleted the task meanwhile. */
  const recordDurableRun = (task: CronTask, now: number): boolean => {
    let present = true;
    try {
      ctx.file.mutate((tasks) => {
        present = tasks.some((t) => t.id === task.id);
        return task.recurring ? tasks.map((t) => (t.id === task.id ? { ...t, lastRunAt: now } : t)) : tasks.filter((t) => t.id !== task.id);
      });
    } catch (err) {
      // Still fire: the user asked for it; a stale lastRunAt at worst repeats a missed notice.
      ctx.notify('error', `Scheduled task ${task.id}: could not record the run: ${errorMessage(err)}`);
    }
    return present;
  };

  return {
    fire(e, now) {
      const minute = Math.floor(now / MINUTE_MS);
      const run = e.next;
      if (!run) return;
      if (e.lastFiredMinute === minute) {
        scheduleFrom(e, run.base, now);
        return;
      }
      e.lastFiredMinute = minute;
      const task: CronTask = { ...e.task, lastRunAt: now };
      if (task.durable && !recordDurableRun(task, now)) {
        ctx.table.delete(task.id);
        return;
      }
      remember(task);
      if (task.recurring) {
        e.task = task;
        scheduleFrom(e, run.base, now);
      } else {
        ctx.table.delete(task.id);
      }
      ctx.emit(task, 'fired');
      deliver({ task, prompt: task.prompt, autoRun: task.autoRun });
      if (!task.recurring) ctx.emit(task, 'deleted', 'one-shot task fired');
    },
    fireUnscheduled(task) {
      const done: FiredTask = { task, prompt: task.prompt, autoRun: task.autoRun };
      remember(task);
      ctx.emit(task, 'fired');
      deliver(done);
      return done;
    },
    reportAutoRun(taskId, result) {
      const task = fired.get(taskId) ?? ctx.table.get(taskId)?.task;
      if (!task) {
        ctx.notify('warning', `Scheduled task ${taskId} finished its auto run but is unknown`);
        return;
      }
      ctx.emit(task, 'auto_run_finished', result);
    },
  };
}
