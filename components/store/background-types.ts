import type { EventOf, NoticeLevel } from '../../src/events.js';

// The types of work outside a turn (cron tasks, background shells): background-state.ts reduces them.

/** A scheduled task's notice in the transcript: one line; the result unfolds with Enter. */
export interface CronItem {
  readonly kind: 'cron';
  readonly id: string;
  readonly taskId: string;
  readonly schedule: string;
  readonly prompt: string;
  readonly status: EventOf<'cron'>['status'];
  readonly result?: string;
  readonly userExpanded?: boolean;
}

/** A short-lived note at the bottom right; never takes the focus. */
export interface Toast {
  readonly id: string;
  readonly level: NoticeLevel;
  readonly text: string;
  readonly at: number;
  /** The scheduled task it is about: it goes when the task is deleted. */
  readonly taskId?: string;
}

export interface BackgroundCounts {
  /** Scheduled tasks (session and durable). */
  readonly cron: number;
  /** Background shells still running. */
  readonly shells: number;
}

export type BackgroundAction =
  | { type: 'background'; cron: number; shells: number }
  /** Drops toasts older than TOAST_MS at `now`; with `cron`, every scheduled-task toast at once (/cron clear). */
  | { type: 'toastExpire'; now: number; cron?: boolean };
