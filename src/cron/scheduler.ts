import { randomBytes } from 'node:crypto';
import type { Clock, TimerHandle } from '../clock.js';
import type { NoticeLevel } from '../events.js';
import { parseCron, type CronSchedule } from './expression.js';
import { createCronLock, cronLockPath, type CronLock } from './lock.js';
import { createFileCronStore, scheduledTasksPath, type CronStore } from './store.js';
import { jitterMinutes, MAX_JITTER_MINUTES, MINUTE_MS, nextRun, runsBetween } from './timing.js';
import type { CronEvent, CronTask, CronTaskInfo, FiredTask, MissedTask, NewCronTask } from './types.js';
import { errorMessage } from '../util/error-message.js';

export const TICK_MS = 1_000;
/** How often the lock and the shared file are re-checked (clock time). */
export const POLL_MS = 5_000;
export const DEFAULT_EXPIRY_DAYS = 7;
export const MISSED_LOOKBACK_MS = 24 * 60 * MINUTE_MS;
export const MAX_TASKS = 50;
const DAY_MS = 24 * 60 * MINUTE_MS;

export class CronError extends Error {
  override readonly name = 'CronError';
}

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
  /** false when there is no such task. */
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
  status(): CronStatus;
}

interface Entry {
  task: CronTask;
  schedule: CronSchedule;
  jitter: number;
  /** Next fire time (jitter included); undefined when the expression has no future run. */
  next?: { base: number; fireAt: number };
  lastFiredMinute?: number;
}

function newId(): string {
  return randomBytes(4).toString('hex');
}

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

export function createCronScheduler(options: CronSchedulerOptions): CronScheduler {
  const { clock } = options;
  const store = options.store ?? createFileCronStore(scheduledTasksPath(options.cwd));
  const lock = options.lock ?? createCronLock(cronLockPath(options.cairnHome, options.cwd));
  const expiryMs = (options.expiryDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS;

  const entries = new Map<string, Entry>();
  /** Tasks that fired recently, so reportAutoRun can name a one-shot task that is already gone. */
  const fired = new Map<string, CronTask>();
  let leader = false;
  let holderPid: number | undefined;
  let storeError: string | undefined;
  let storeSignature: string | undefined;
  let timer: TimerHandle | undefined;
  let running = false;
  let lastPoll = -Infinity;
  let missed: MissedTask[] = [];

  const notify = (level: NoticeLevel, message: string): void => options.onNotice?.(level, message);
  const emit = (task: CronTask, status: CronEvent['status'], result?: string): void => {
    const event: CronEvent = { type: 'cron', task_id: task.id, schedule: task.cron, prompt: task.prompt, status };
    options.onEvent(result === undefined ? event : { ...event, result });
  };

  const makeEntry = (task: CronTask, schedule: CronSchedule = parseCron(task.cron)): Entry => ({
    task,
    schedule,
    jitter: jitterMinutes(task),
  });

  /** Schedules the first run after `after` (cron time and fire time both later). */
  const scheduleFrom = (e: Entry, baseAfter: number, fireAfter: number): void => {
    const run = nextRun(e.schedule, e.jitter, baseAfter, fireAfter);
    if (run) e.next = run;
    else delete e.next;
  };

  /**
   * Where a loaded task's schedule resumes: after its last run, but no further back than the
   * jitter window, so a run whose fire time is still ahead is kept and older ones are not replayed
   * (they are what missed-run detection reports).
   */
  const resumeAfter = (task: CronTask, now: number): number =>
    Math.max(task.createdAt, task.lastRunAt ?? -Infinity, now - MAX_JITTER_MINUTES * MINUTE_MS);

  const info = (e: Entry): CronTaskInfo => (e.next ? { ...e.task, nextRunAt: e.next.fireAt } : { ...e.task });

  // --- the shared file -------------------------------------------------------------------------

  /** Reads the file; on failure remembers and reports the error once, and keeps the last good tasks. */
  const loadDurable = (): CronTask[] | undefined => {
    storeSignature = store.signature();
    try {
      const tasks = store.load();
      storeError = undefined;
      return tasks;
    } catch (err) {
      const message = errorMessage(err);
      if (message !== storeError) notify('error', `Scheduled tasks: ${message}`);
      storeError = message;
      return undefined;
    }
  };

  /** Read-modify-write of the shared file. Refuses (throws CronError) rather than overwrite a file it cannot read. */
  const mutateDurable = (change: (tasks: CronTask[]) => CronTask[]): void => {
    let current: CronTask[];
    try {
      current = store.load();
    } catch (err) {
      throw new CronError(`${errorMessage(err)} (not overwriting it)`);
    }
    store.save(change(current));
    storeSignature = store.signature();
    storeError = undefined;
  };

  /** Brings the in-memory durable entries in line with the file (another cairn may have changed it). */
  const syncDurable = (tasks: CronTask[], now: number): void => {
    const seen = new Set<string>();
    for (const task of tasks) {
      seen.add(task.id);
      const existing = entries.get(task.id);
      if (existing?.task.durable) {
        existing.task = task;
        continue;
      }
      let entry: Entry;
      try {
        entry = makeEntry(task);
      } catch (err) {
        notify('warning', `Scheduled task ${task.id} in ${store.path} is skipped: ${(err as Error).message}`);
        continue;
      }
      scheduleFrom(entry, resumeAfter(task, now), now);
      entries.set(task.id, entry);
    }
    for (const [id, e] of entries) if (e.task.durable && !seen.has(id)) entries.delete(id);
  };

  // --- expiry, missed runs, leadership ---------------------------------------------------------

  const expired = (task: CronTask, now: number): boolean => task.recurring && now - task.createdAt >= expiryMs;

  const removeExpired = (now: number): void => {
    const gone = [...entries.values()].filter((e) => expired(e.task, now)).map((e) => e.task);
    if (gone.length === 0) return;
    const durableIds = new Set(gone.filter((t) => t.durable).map((t) => t.id));
    if (durableIds.size > 0 && leader) {
      try {
        mutateDurable((tasks) => tasks.filter((t) => !durableIds.has(t.id)));
      } catch (err) {
        notify('error', `Scheduled tasks: could not remove expired tasks: ${(err as Error).message}`);
        return;
      }
    }
    for (const task of gone) {
      // A follower leaves expiring durable tasks to the leader (it owns writes of run state).
      if (task.durable && !leader) continue;
      entries.delete(task.id);
      emit(task, 'deleted', `expired ${Math.round(expiryMs / DAY_MS)} days after creation`);
    }
  };

  /** Durable tasks that should have fired while no cairn was firing here (look-back capped at 24 h). */
  const detectMissed = (now: number): MissedTask[] => {
    const found: MissedTask[] = [];
    const handled = new Map<string, number>();
    for (const e of entries.values()) {
      if (!e.task.durable) continue;
      const since = Math.max(e.task.lastRunAt ?? e.task.createdAt, now - MISSED_LOOKBACK_MS);
      const { count, last } = runsBetween(e.schedule, e.jitter, since, now);
      if (!last) continue;
      found.push({ task: { ...e.task }, dueAt: last.fireAt, missedCount: count, prompt: missedNotice(e.task, last.fireAt) });
      handled.set(e.task.id, last.fireAt);
    }
    if (found.length === 0) return found;
    // Record that these were dealt with (reported), so the next start does not report them again;
    // a missed one-shot task is done once reported.
    try {
      mutateDurable((tasks) =>
        tasks.flatMap((t) => {
          const at = handled.get(t.id);
          if (at === undefined) return [t];
          return t.recurring ? [{ ...t, lastRunAt: at }] : [];
        }),
      );
    } catch (err) {
      notify('error', `Scheduled tasks: could not record missed runs: ${(err as Error).message}`);
    }
    for (const m of found) {
      const e = entries.get(m.task.id);
      if (e && m.task.recurring) e.task = { ...e.task, lastRunAt: m.dueAt };
      else entries.delete(m.task.id);
      emit(m.task, 'missed', m.prompt);
    }
    return found;
  };

  /** Re-checks the lock and the shared file. Returns true when this process just became the leader. */
  const poll = (now: number): boolean => {
    lastPoll = now;
    const wasLeader = leader;
    try {
      const state = lock.tryAcquire();
      leader = state.leader;
      holderPid = state.leader ? undefined : state.holderPid;
    } catch (err) {
      leader = false;
      notify('error', `Scheduled tasks: cannot use ${lock.path}: ${(err as Error).message}`);
    }
    if (store.signature() !== storeSignature) {
      const tasks = loadDurable();
      if (tasks) syncDurable(tasks, now);
    }
    return leader && !wasLeader;
  };

  /** On becoming the leader: durable runs restart from now; what passed meanwhile is reported as missed. */
  const takeOver = (now: number): MissedTask[] => {
    const found = detectMissed(now);
    for (const e of entries.values()) {
      if (e.task.durable) scheduleFrom(e, resumeAfter(e.task, now), now);
    }
    return found;
  };

  // --- firing ------------------------------------------------------------------------------------

  const deliver = (fired: FiredTask): void => {
    try {
      options.onFire(fired);
    } catch (err) {
      notify('error', `Scheduled task ${fired.task.id} could not be delivered: ${(err as Error).message}`);
    }
  };

  const fire = (e: Entry, now: number): void => {
    const minute = Math.floor(now / MINUTE_MS);
    const run = e.next;
    if (!run) return;
    if (e.lastFiredMinute === minute) {
      scheduleFrom(e, run.base, now);
      return;
    }
    e.lastFiredMinute = minute;
    const task: CronTask = { ...e.task, lastRunAt: now };
    if (task.durable) {
      let present = true;
      try {
        mutateDurable((tasks) => {
          present = tasks.some((t) => t.id === task.id);
          return task.recurring
            ? tasks.map((t) => (t.id === task.id ? { ...t, lastRunAt: now } : t))
            : tasks.filter((t) => t.id !== task.id);
        });
      } catch (err) {
        // Still fire: the user asked for it; a stale lastRunAt at worst repeats a missed notice.
        notify('error', `Scheduled task ${task.id}: could not record the run: ${(err as Error).message}`);
      }
      if (!present) {
        // Another cairn deleted it since our last look at the file.
        entries.delete(task.id);
        return;
      }
    }
    fired.set(task.id, task);
    if (fired.size > 200) fired.delete(fired.keys().next().value as string);
    if (task.recurring) {
      e.task = task;
      scheduleFrom(e, run.base, now);
    } else {
      entries.delete(task.id);
    }
    emit(task, 'fired');
    deliver({ task, prompt: task.prompt, autoRun: task.autoRun });
    if (!task.recurring) emit(task, 'deleted', 'one-shot task fired');
  };

  const tick = (): void => {
    timer = undefined;
    if (!running) return;
    const now = clock.now();
    try {
      if (now - lastPoll >= POLL_MS && poll(now)) takeOver(now);
      removeExpired(now);
      for (const e of [...entries.values()]) {
        if (!e.next || e.next.fireAt > now) continue;
        // Durable tasks fire in the lock holder only; session-only tasks belong to this session.
        if (e.task.durable && !leader) continue;
        fire(e, now);
      }
    } catch (err) {
      notify('error', `Scheduler tick failed: ${(err as Error).message}`);
    }
    if (running) timer = clock.setTimeout(tick, TICK_MS);
  };

  // --- the API -------------------------------------------------------------------------------

  const durableCount = (): number => [...entries.values()].filter((e) => e.task.durable).length;

  return {
    start() {
      if (running) return;
      running = true;
      const now = clock.now();
      const tasks = loadDurable();
      if (tasks) syncDurable(tasks, now);
      poll(now);
      removeExpired(now);
      missed = leader ? takeOver(now) : [];
      timer = clock.setTimeout(tick, TICK_MS);
    },
    stop() {
      running = false;
      if (timer) clock.clearTimeout(timer);
      timer = undefined;
      if (leader) {
        try {
          lock.release();
        } catch (err) {
          notify('warning', `Scheduled tasks: could not remove ${lock.path}: ${(err as Error).message}`);
        }
      }
      leader = false;
    },
    create(input) {
      const schedule = parseCron(input.cron);
      const prompt = input.prompt.trim();
      if (prompt === '') throw new CronError('prompt: must not be empty');
      if (entries.size >= MAX_TASKS) throw new CronError(`too many scheduled tasks (limit ${MAX_TASKS}); delete some first`);
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
      if (task.durable) mutateDurable((tasks) => [...tasks, task]);
      const entry = makeEntry(task, schedule);
      scheduleFrom(entry, now, now);
      entries.set(task.id, entry);
      emit(task, 'created');
      return info(entry);
    },
    list() {
      return [...entries.values()]
        .map(info)
        .sort((a, b) => (a.nextRunAt ?? Infinity) - (b.nextRunAt ?? Infinity) || a.createdAt - b.createdAt);
    },
    delete(id) {
      const e = entries.get(id);
      if (!e) return false;
      if (e.task.durable) mutateDurable((tasks) => tasks.filter((t) => t.id !== id));
      entries.delete(id);
      emit(e.task, 'deleted');
      return true;
    },
    clear(opts = {}) {
      const gone = [...entries.values()].filter((e) => !opts.durableOnly || e.task.durable);
      if (gone.some((e) => e.task.durable)) {
        const ids = new Set(gone.map((e) => e.task.id));
        mutateDurable((tasks) => tasks.filter((t) => !ids.has(t.id)));
      }
      for (const e of gone) {
        entries.delete(e.task.id);
        emit(e.task, 'deleted');
      }
      return gone.length;
    },
    fireNow(prompt) {
      const text = prompt.trim();
      if (text === '') throw new CronError('prompt: must not be empty');
      const now = clock.now();
      const task: CronTask = {
        id: `test-${newId()}`,
        cron: 'now',
        prompt: text,
        recurring: false,
        durable: false,
        autoRun: false,
        createdAt: now,
        lastRunAt: now,
      };
      const firedTask: FiredTask = { task, prompt: text, autoRun: false };
      fired.set(task.id, task);
      emit(task, 'fired');
      deliver(firedTask);
      return firedTask;
    },
    missedOnStart: () => [...missed],
    reportAutoRun(taskId, result) {
      const task = fired.get(taskId) ?? entries.get(taskId)?.task;
      if (!task) {
        notify('warning', `Scheduled task ${taskId} finished its auto run but is unknown`);
        return;
      }
      emit(task, 'auto_run_finished', result);
    },
    get isLeader() {
      return leader;
    },
    status() {
      const durable = durableCount();
      const session = entries.size - durable;
      const counts = `${session} session, ${durable} durable task${durable === 1 ? '' : 's'}`;
      let line: string;
      if (!running) line = `scheduler stopped (${counts})`;
      else if (leader) line = `this cairn fires scheduled tasks here (${counts})`;
      else if (holderPid !== undefined)
        line = `another cairn (pid ${holderPid}) is firing tasks here; this one fires only its session tasks (${counts})`;
      else line = `another cairn is firing tasks here; this one fires only its session tasks (${counts})`;
      if (storeError) line += `; ${storeError}`;
      return {
        isLeader: leader,
        ...(holderPid === undefined ? {} : { holderPid }),
        ...(storeError === undefined ? {} : { storeError }),
        line,
      };
    },
  };
}
