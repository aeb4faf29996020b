import type { EventOf } from '../events.js';

/** A scheduled prompt. Durable ones are also the records in .cairn/scheduled_tasks.json. */
export interface CronTask {
  id: string;
  cron: string;
  prompt: string;
  /** false: a one-shot task, removed after it fires. */
  recurring: boolean;
  /** true: survives restarts (stored in the workspace); false: lives in this session only. */
  durable: boolean;
  /** true: the lead runs it as a background subagent instead of queueing the prompt. */
  autoRun: boolean;
  createdAt: number;
  /** When it last fired (ms); absent until the first run. */
  lastRunAt?: number;
}

/** A task as list() shows it: plus when it will fire next (jitter included). */
export interface CronTaskInfo extends CronTask {
  nextRunAt?: number;
}

export interface FiredTask {
  task: CronTask;
  prompt: string;
  autoRun: boolean;
}

export interface MissedTask {
  task: CronTask;
  /** The most recent scheduled time that passed without a run. */
  dueAt: number;
  /** How many scheduled times passed in the look-back window. */
  missedCount: number;
  /** Ready for the model: `[Missed scheduled task <id> "<cron>": <prompt> — it was due at <time>; decide whether to catch up]`. */
  prompt: string;
}

export type CronEvent = EventOf<'cron'>;

export interface NewCronTask {
  cron: string;
  prompt: string;
  recurring?: boolean;
  durable?: boolean;
  autoRun?: boolean;
}
