import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../clock.js';
import { createCronScheduler, type CronScheduler } from '../cron/scheduler.js';
import type { FiredTask } from '../cron/types.js';
import type { AgentEvent } from '../events.js';
import { notice } from '../events.js';
import { createBackgroundAgents, type BackgroundAgents } from '../agents/background-agents.js';
import { createShellManager, type ShellManager } from '../shells/shell-manager.js';
import { createShellWatches, type ShellWatches, type WatchLimits } from '../shells/shell-watches.js';
import type { TodoList } from '../todos/todo-list.js';
import { errorMessage } from '../util/error-message.js';

export interface BackgroundWork {
  cron: CronScheduler;
  shells: ShellManager;
  /** Subagents started with run_in_background. */
  agents: BackgroundAgents;
  /** Watches on background shells' output (the monitor tool). */
  watches: ShellWatches;
  /** Notes for the next model request: fired prompts, finished shells, stale todos, missed runs. */
  reminders(): string[];
  /** Connects firing to a session once it exists. */
  attach(target: ScheduledPromptTarget): void;
  /** Stops running auto runs (of one task, or all); returns how many were stopped. */
  cancelAutoRuns(taskId?: string): number;
  /** The ids of tasks whose auto run is in progress. */
  autoRunning(): string[];
  start(): void;
  stop(): void;
}

export interface ScheduledPromptTarget {
  readonly busy: boolean;
  run(prompt: string): unknown;
  emit(event: AgentEvent): void;
  /**
   * Runs a prompt as a background subagent; resolves with its report. Stops when `signal` aborts.
   * `runId` is the id its subagent events carry as parent_id (the auto_run card's id).
   */
  runInBackground(prompt: string, signal: AbortSignal, runId: string): Promise<string>;
}

/** The prompt of the turn a background agent's end starts while the lead is idle. */
export const BACKGROUND_AGENTS_ENDED = 'A background agent has ended; its report is below. Carry on with it.';

/** The prompt of the turn a watched shell's news (output, its end, the watch's expiry) starts while the lead is idle. */
export const WATCHED_OUTPUT_ARRIVED = 'A background shell you are watching has news (new output, or the watch or its command ended); it is below. Act on it if it needs you.';

/** While the lead is busy, how often a waiting watch note checks whether it may start a turn. */
const IDLE_CHECK_MS = 500;

/**
 * Work that happens outside a turn: cron firing and background shells. Fired prompts start a
 * turn when the session is idle, else they wait as a <scheduled-tasks> block for the next request.
 */
export function createBackgroundWork(opts: {
  cwd: string;
  cairnHome: string;
  clock: Clock;
  todos: TodoList;
  env?: NodeJS.ProcessEnv;
  /** Watched output may start a turn when the lead is idle (the TUI, the page); cairn -p only takes it into its next request. */
  interactive?: boolean;
  watchLimits?: Partial<WatchLimits>;
}): BackgroundWork {
  let target: ScheduledPromptTarget | undefined;
  const emit = (event: AgentEvent): void => target?.emit(event);
  const waiting: string[] = [];
  const missed: string[] = [];

  // Auto runs in progress, each with the controller that stops it (/cron delete, /cron clear, Esc, exit).
  const autoRuns = new Set<{ taskId: string; controller: AbortController }>();
  const cancelAutoRuns = (taskId?: string): number => {
    let n = 0;
    for (const run of autoRuns) {
      if ((taskId !== undefined && run.taskId !== taskId) || run.controller.signal.aborted) continue;
      run.controller.abort();
      n++;
    }
    return n;
  };

  const autoRun = (fired: FiredTask, to: ScheduledPromptTarget): void => {
    const run = { taskId: fired.task.id, controller: new AbortController() };
    const runId = `cron-${randomUUID().slice(0, 8)}`;
    const startedAt = opts.clock.now();
    const card = { type: 'auto_run', run_id: runId, task_id: fired.task.id, prompt: fired.prompt } as const;
    const finish = (status: 'finished' | 'failed' | 'cancelled', result: string): void => {
      emit({ ...card, status, result, duration_ms: opts.clock.now() - startedAt });
      cron.reportAutoRun(fired.task.id, status === 'cancelled' ? 'cancelled' : result);
    };
    autoRuns.add(run);
    emit({ ...card, status: 'started' });
    to.runInBackground(fired.prompt, run.controller.signal, runId)
      .then((report) => finish(run.controller.signal.aborted ? 'cancelled' : 'finished', report))
      .catch((error: unknown) => finish(run.controller.signal.aborted ? 'cancelled' : 'failed', `failed: ${errorMessage(error)}`))
      .finally(() => autoRuns.delete(run));
  };

  const onFire = (fired: FiredTask): void => {
    if (fired.autoRun) {
      if (target) autoRun(fired, target);
      return;
    }
    if (target && !target.busy) target.run(fired.prompt);
    else waiting.push(fired.prompt);
  };

  const cron = createCronScheduler({
    cwd: opts.cwd,
    cairnHome: opts.cairnHome,
    clock: opts.clock,
    onFire,
    onEvent: emit,
    onNotice: (level, message) => emit(notice(level, message)),
    cancelRuns: (taskId) => cancelAutoRuns(taskId),
  });
  const shells = createShellManager({ clock: opts.clock, onEvent: emit, ...(opts.env ? { env: opts.env } : {}) });
  const agents = createBackgroundAgents({ emit, clock: opts.clock });
  // What waits for the lead's next request (a background agent's report, watched output) gets one:
  // at once when the lead is idle, else once the running turn ends, if that turn's last request
  // went out before it came (checked every IDLE_CHECK_MS while the lead is busy).
  const whenIdle = (pending: () => boolean, prompt: string) => {
    let timer: TimerHandle | undefined;
    const check = (): void => {
      timer = undefined;
      if (!target || !pending()) return;
      if (target.busy) timer = opts.clock.setTimeout(check, IDLE_CHECK_MS);
      else target.run(prompt);
    };
    return {
      poke: () => (timer === undefined ? check() : undefined),
      cancel: () => (timer !== undefined ? opts.clock.clearTimeout(timer) : undefined),
    };
  };
  // As Claude Code does: a turn whose prompt names the agents that ended (the reports themselves
  // come with it, as reminders).
  const agentReports = whenIdle(() => agents.pending > 0, BACKGROUND_AGENTS_ENDED);
  agents.onSettled(agentReports.poke);
  const watches = createShellWatches({ shells, emit, clock: opts.clock, ...(opts.watchLimits ? { limits: opts.watchLimits } : {}) });
  // Headless (-p) runs one prompt: watched output only rides along with its requests.
  const watchedOutput = whenIdle(() => opts.interactive === true && watches.pending > 0, WATCHED_OUTPUT_ARRIVED);
  watches.onDelivery(watchedOutput.poke);

  return {
    cron,
    shells,
    agents,
    watches,
    reminders() {
      const notes: string[] = [];
      if (missed.length > 0) notes.push(...missed.splice(0));
      if (waiting.length > 0) notes.push(`<scheduled-tasks>\n${waiting.splice(0).map((p) => `- ${p}`).join('\n')}\n</scheduled-tasks>\nThese scheduled prompts fired while you were busy; handle them after the current request.`);
      notes.push(...watches.drainNotes());
      notes.push(...shells.drainCompletions());
      notes.push(...agents.drainResults());
      const todo = opts.todos.reminder();
      if (todo) notes.push(todo);
      return notes;
    },
    attach(t) {
      target = t;
    },
    cancelAutoRuns,
    autoRunning: () => [...autoRuns].filter((r) => !r.controller.signal.aborted).map((r) => r.taskId),
    start() {
      cron.start();
      for (const m of cron.missedOnStart()) {
        missed.push(m.prompt);
        emit({ type: 'cron', task_id: m.task.id, schedule: m.task.cron, prompt: m.task.prompt, status: 'missed', result: m.prompt });
      }
    },
    stop() {
      cron.stop();
      cancelAutoRuns();
      agents.stopAll();
      watches.stopAll();
      agentReports.cancel();
      watchedOutput.cancel();
      shells.killAll();
    },
  };
}
