import { randomBytes } from 'node:crypto';
import type { Clock, TimerHandle } from '../clock.js';
import type { NoticeLevel } from '../events.js';
import { errorMessage } from '../util/error-message.js';
import { createDurableFile, CronError, syncDurable } from './durable-file.js';
import { DAY_MS, DEFAULT_EXPIRY_DAYS, removeExpired } from './expiry.js';
import { parseCron } from './expression.js';
import { createFiring } from './firing.js';
import { createLeadership } from './leadership.js';
import { createCronLock, cronLockPath, type CronLock } from './lock.js';
import { detectMissed } from './missed-runs.js';
import { entryInfo, makeEntry, resumeAfter, scheduleFrom, type ScheduleTable } from './schedule-table.js';
import { createFileCronStore, scheduledTasksPath, type CronStore } from './store.js';
import type { CronEvent, CronTask, CronTaskInfo, FiredTask, MissedTask, NewCronTask } from './types.js';

// The scheduler wires its parts together: the shared file (durable-file), who fires
// (leadership), expiry, missed runs and firing each live in a module of their own; this one
// keeps the 1 s tick and the API the tools and /cron use.
export { CronError } from './durable-file.js';
export { DEFAULT_EXPIRY_DAYS } from './expiry.js';
export { formatLocalTime, MISSED_LOOKBACK_MS, missedNotice } from './missed-runs.js';

export const TICK_MS = 1_000;
/** How often the lock and the shared file are re-checked (clock time). */
export const POLL_MS = 5_000;
export const MAX_TASKS = 50;

export interface CronSchedulerOptions {
  /** Workspace root: the durable file lives in <cwd>/.cairn/. */
  cwd: string;
  /** $CAIRN_HOME: the workspace's lock lives under it (see cronLockPath). */
  cairnHome: string;
  clock: Clock;
  /** A task fired: queue its prompt (or run it as a subagent when autoRun). Exceptions are reported via onNotice. */
  onFire(fired: FiredTask): void;
  onEvent(event: CronEvent): void;
  /** Problems the user should see (corrupt file, failed write, a throwing onFire). */
  onNotice?(level: NoticeLevel, message: string): void;
  /**
   * Stops the auto runs in progress of one task (or all): deleting or clearing tasks stops the
   * work they started, even a one-shot task's that left the schedule when it fired. Returns how many.
   */
  cancelRuns?(taskId?: string): number;
  /** Recurring tasks are deleted this many days after creation (default 7). */
  expiryDays?: number;
  store?: CronStore;
  lock?: CronLock;
}

export interface CronStatus {
  isLeader: boolean;
  holderPid?: number;
  /** The shared file's problem, when it cannot be read. */
  storeError?: string;
  /** One line for /cron. */
  line: string;
}

export interface CronScheduler {
  /** Takes the lock if free, loads durable tasks, detects missed runs, starts the 1 s tick. */
  start(): void;
  /** Stops ticking and releases the lock. */
  stop(): void;
  /** Throws CronError / CronExpressionError with a message for the model. */
  create(input: NewCronTask): CronTaskInfo;
  list(): CronTaskInfo[];
  /** Deletes a task and stops its auto run if one is in progress; false when there is neither. */
  delete(id: string): boolean;
  /** Deletes every task (only durable ones with durableOnly); returns how many. */
  clear(opts?: { durableOnly?: boolean }): number;
  /** Fires a prompt once, right now, as if a task had (for /cron test). Not stored. */
  fireNow(prompt: string): FiredTask;
  /** Missed runs found by start(), for the lead to put in front of the model. */
  missedOnStart(): MissedTask[];
  /** An auto_run task's subagent finished: emits `auto_run_finished` with its result. */
  reportAutoRun(taskId: string, result: string): void;
  readonly isLeader: boolean;
  /** Started and not stopped: scheduled prompts fire in this process (interactive sessions; never in `cairn -p`). */
  readonly running: boolean;
  status(): CronStatus;
}

function newId(): string {
  return randomBytes(4).toString('hex');
}

export function createCronScheduler(options: CronSchedulerOptions): CronScheduler {
  const { clock } = options;
  const expiryMs = (options.expiryDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS;
  const notify = (level: NoticeLevel, message: string): void => options.onNotice?.(level, message);
  const emit = (task: CronTask, status: CronEvent['status'], result?: string): void => {
    const event: CronEvent = { type: 'cron', task_id: task.id, schedule: task.cron, prompt: task.prompt, status };
    options.onEvent(result === undefined ? event : { ...event, result });
  };

  const table: ScheduleTable = new Map();
  const file = createDurableFile(options.store ?? createFileCronStore(scheduledTasksPath(options.cwd)), notify);
  const leadership = createLeadership(options.lock ?? createCronLock(cronLockPath(options.cairnHome, options.cwd)), notify);
  const firing = createFiring({ table, file, emit, notify, onFire: (fired) => options.onFire(fired) });
  const expire = (now: number): void => removeExpired({ table, file, isLeader: leadership.isLeader, expiryMs, emit, notify }, now);
  let timer: TimerHandle | undefined;
  let running = false;
  let lastPoll = -Infinity;
  let missed: MissedTask[] = [];

  const reload = (now: number): void => {
    const tasks = file.load();
    if (tasks) syncDurable(table, tasks, now, file, notify);
  };

  /** Re-checks the lock and the shared file. Returns true when this process just became the leader. */
  const poll = (now: number): boolean => {
    lastPoll = now;
    const became = leadership.poll();
    if (file.changed()) reload(now);
    return became;
  };

  /** On becoming the leader: durable runs restart from now; what passed meanwhile is reported as missed. */
  const takeOver = (now: number): MissedTask[] => {
    const found = detectMissed({ table, file, emit, notify }, now);
    for (const e of table.values()) {
      if (e.task.durable) scheduleFrom(e, resumeAfter(e.task, now), now);
    }
    return found;
  };

  const tick = (): void => {
    timer = undefined;
    if (!running) return;
    const now = clock.now();
    try {
      if (now - lastPoll >= POLL_MS && poll(now)) takeOver(now);
      expire(now);
      for (const e of [...table.values()]) {
        if (!e.next || e.next.fireAt > now) continue;
        // Durable tasks fire in the lock holder only; session-only tasks belong to this session.
        if (e.task.durable && !leadership.isLeader) continue;
        firing.fire(e, now);
      }
    } catch (err) {
      notify('error', `Scheduler tick failed: ${errorMessage(err)}`);
    }
    armTick();
  };

  // With no task in this process, only the shared file and the lock need a look, every POLL_MS:
  // no wake-up every second in a session that schedules nothing (it showed as idle CPU).
  const armTick = (): void => {
    if (!running) return;
    if (timer) clock.clearTimeout(timer);
    timer = clock.setTimeout(tick, table.size === 0 ? Math.max(TICK_MS, POLL_MS - (clock.now() - lastPoll)) : TICK_MS);
  };

  const durableCount = (): number => [...table.values()].filter((e) => e.task.durable).length;

  return {
    start() {
      if (running) return;
      running = true;
      const now = clock.now();
      reload(now);
      poll(now);
      expire(now);
      missed = leadership.isLeader ? takeOver(now) : [];
      armTick();
    },
    stop() {
      running = false;
      if (timer) clock.clearTimeout(timer);
      timer = undefined;
      leadership.release();
    },
    create(input) {
      const schedule = parseCron(input.cron);
      const prompt = input.prompt.trim();
      if (prompt === '') throw new CronError('prompt: must not be empty');
      if (table.size >= MAX_TASKS) throw new CronError(`too many scheduled tasks (limit ${MAX_TASKS}); delete some first`);
      const now = clock.now();
      const task: CronTask = {
        id: newId(),
        cron: schedule.expr,
        prompt,
        recurring: input.recurring ?? true,
        durable: input.durable ?? false,
        autoRun: input.autoRun ?? false,
        createdAt: now,
      };
      if (task.durable) file.mutate((tasks) => [...tasks, task]);
      const entry = makeEntry(task, schedule);
      scheduleFrom(entry, now, now);
      const wasEmpty = table.size === 0;
      table.set(task.id, entry);
      // The idle wait may be up to POLL_MS: tick every second again from now.
      if (wasEmpty) armTick();
      emit(task, 'created');
      return entryInfo(entry);
    },
    list() {
      return [...table.values()]
        .map(entryInfo)
        .sort((a, b) => (a.nextRunAt ?? Infinity) - (b.nextRunAt ?? Infinity) || a.createdAt - b.createdAt);
    },
    delete(id) {
      const cancelled = (options.cancelRuns?.(id) ?? 0) > 0;
      const e = table.get(id);
      if (!e) return cancelled;
      if (e.task.durable) file.mutate((tasks) => tasks.filter((t) => t.id !== id));
      table.delete(id);
      emit(e.task, 'deleted');
      return true;
    },
    clear(opts = {}) {
      const gone = [...table.values()].filter((e) => !opts.durableOnly || e.task.durable);
      if (gone.some((e) => e.task.durable)) {
        const ids = new Set(gone.map((e) => e.task.id));
        file.mutate((tasks) => tasks.filter((t) => !ids.has(t.id)));
      }
      for (const e of gone) {
        table.delete(e.task.id);
        emit(e.task, 'deleted');
        if (opts.durableOnly) options.cancelRuns?.(e.task.id);
      }
      if (!opts.durableOnly) options.cancelRuns?.();
      return gone.length;
    },
    fireNow(prompt) {
      const text = prompt.trim();
      if (text === '') throw new CronError('prompt: must not be empty');
      const now = clock.now();
      return firing.fireUnscheduled({
        id: `test-${newId()}`,
        cron: 'now',
        prompt: text,
        recurring: false,
        durable: false,
        autoRun: false,
        createdAt: now,
        lastRunAt: now,
      });
    },
    missedOnStart: () => [...missed],
    reportAutoRun: (taskId, result) => firing.reportAutoRun(taskId, result),
    get isLeader() {
      return leadership.isLeader;
    },
    get running() {
      return running;
    },
    status() {
      const durable = durableCount();
      const session = table.size - durable;
      const counts = `${session} session, ${durable} durable task${durable === 1 ? '' : 's'}`;
      const { isLeader, holderPid } = leadership;
      const storeError = file.error;
      let line: string;
      if (!running) line = `scheduler stopped (${counts})`;
      else if (isLeader) line = `this cairn fires scheduled tasks here (${counts})`;
      else if (holderPid !== undefined)
        line = `another cairn (pid ${holderPid}) is firing tasks here; this one fires only its session tasks (${counts})`;
      else line = `another cairn is firing tasks here; this one fires only its session tasks (${counts})`;
      if (storeError) line += `; ${storeError}`;
      return {
        isLeader,
        ...(holderPid === undefined ? {} : { holderPid }),
        ...(storeError === undefined ? {} : { storeError }),
        line,
      };
    },
  };
}
