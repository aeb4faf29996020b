import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../src/clock.js';
import type { AgentEvent } from '../../../src/events.js';
import { createBackgroundWork, type BackgroundWork } from '../../../src/runtime/background-work.js';
import { TodoList } from '../../../src/todos/todo-list.js';
import { waitFor } from '../../helpers/wait-for.js';

let work: BackgroundWork | undefined;
afterEach(() => work?.stop());

async function setup(busy: boolean) {
  const cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-bg-')));
  const clock = createFakeClock(Date.UTC(2026, 10, 29, 10, 0, 30));
  const runs: string[] = [];
  const background: string[] = [];
  const runIds: string[] = [];
  const events: AgentEvent[] = [];
  const state = { busy };
  work = createBackgroundWork({ cwd, cairnHome: path.join(cwd, '.home'), clock, todos: new TodoList() });
  work.attach({
    get busy() {
      return state.busy;
    },
    run: (p) => runs.push(p),
    emit: (e) => events.push(e),
    runInBackground: async (p, _signal, runId) => {
      background.push(p);
      runIds.push(runId);
      return `report for ${p}`;
    },
  });
  work.start();
  return { clock, runs, background, runIds, events, state, work };
}

describe('scheduled prompts reach the session', () => {
  it('an idle session starts a turn at once when a task fires', async () => {
    const { clock, runs, work } = await setup(false);
    work.cron.create({ cron: '*/2 * * * *', prompt: 'check the build', recurring: true });
    clock.advance(2 * 60_000);
    expect(runs).toEqual(['check the build']);
    expect(work.reminders()).toEqual([]);
  });

  it('a busy session gets the prompt as a <scheduled-tasks> block before its next request', async () => {
    const { clock, runs, work } = await setup(true);
    work.cron.create({ cron: '*/2 * * * *', prompt: 'check the build', recurring: true });
    clock.advance(2 * 60_000);
    expect(runs).toEqual([]);
    const notes = work.reminders();
    expect(notes[0]).toMatch(/<scheduled-tasks>\n- check the build\n<\/scheduled-tasks>/);
    expect(work.reminders()).toEqual([]); // delivered once
  });

  it('auto_run runs in the background and its result arrives as a cron notice', async () => {
    const { clock, runs, background, runIds, events, work } = await setup(false);
    work.cron.create({ cron: '*/2 * * * *', prompt: 'summarise logs', recurring: true, autoRun: true });
    clock.advance(2 * 60_000);
    await waitFor(() => events.some((e) => e.type === 'cron' && e.status === 'auto_run_finished'));
    expect(runs).toEqual([]);
    expect(background).toEqual(['summarise logs']);
    expect(events.find((e) => e.type === 'cron' && e.status === 'auto_run_finished')).toMatchObject({ result: 'report for summarise logs' });
    // Its card: opened when the run starts, closed with the report, one id for both and for the subagent's events.
    const card = events.filter((e) => e.type === 'auto_run');
    expect(card.map((e) => e.status)).toEqual(['started', 'finished']);
    expect(card[1]).toMatchObject({ run_id: card[0]?.run_id, prompt: 'summarise logs', result: 'report for summarise logs' });
    expect(runIds).toEqual([card[0]?.run_id]);
  });

  it('a finished background shell becomes a reminder', async () => {
    const { work, events } = await setup(false);
    const { id } = work.shells.start('echo done', os.tmpdir());
    await waitFor(() => events.some((e) => e.type === 'background_shell' && e.status === 'completed'));
    expect(work.reminders().join('\n')).toContain(id);
  });
});

describe('cron auto runs can be stopped', () => {
  // A background run that lasts until its signal aborts, like a subagent still working.
  async function holding() {
    const cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-bg-')));
    const clock = createFakeClock(Date.UTC(2026, 10, 29, 10, 0, 30));
    const events: AgentEvent[] = [];
    const signals: AbortSignal[] = [];
    work = createBackgroundWork({ cwd, cairnHome: path.join(cwd, '.home'), clock, todos: new TodoList() });
    work.attach({
      busy: false,
      run: () => undefined,
      emit: (e) => events.push(e),
      runInBackground: (_p, signal) => {
        signals.push(signal);
        return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      },
    });
    work.start();
    const finished = () => events.filter((e) => e.type === 'cron' && e.status === 'auto_run_finished');
    return { clock, events, signals, work, finished };
  }

  it('deleting the task (/cron delete) aborts its run, and the run is reported cancelled', async () => {
    const { clock, signals, work, finished } = await holding();
    const task = work.cron.create({ cron: '*/2 * * * *', prompt: 'summarise logs', recurring: true, autoRun: true });
    clock.advance(2 * 60_000);
    expect(work.autoRunning()).toEqual([task.id]);
    expect(signals[0]?.aborted).toBe(false);
    expect(work.cron.delete(task.id)).toBe(true);
    expect(signals[0]?.aborted).toBe(true);
    await waitFor(() => finished().length === 1);
    expect(finished()[0]).toMatchObject({ task_id: task.id, result: 'cancelled' });
    expect(work.autoRunning()).toEqual([]);
  });

  it('a one-shot task has left the schedule when it runs; deleting it still stops the run', async () => {
    const { clock, signals, work } = await holding();
    const task = work.cron.create({ cron: '*/2 * * * *', prompt: 'once', recurring: false, autoRun: true });
    clock.advance(2 * 60_000);
    expect(work.cron.list()).toEqual([]);
    expect(work.cron.delete(task.id)).toBe(true);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('/cron clear, cancelAutoRuns (Esc) and stopping cairn abort every run', async () => {
    const { clock, signals, work } = await holding();
    work.cron.create({ cron: '*/2 * * * *', prompt: 'a', recurring: true, autoRun: true });
    clock.advance(2 * 60_000);
    work.cron.clear();
    expect(signals.map((s) => s.aborted)).toEqual([true]);
    work.cron.create({ cron: '*/2 * * * *', prompt: 'b', recurring: true, autoRun: true });
    clock.advance(2 * 60_000);
    expect(work.cancelAutoRuns()).toBe(1);
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
    clock.advance(2 * 60_000);
    work.stop();
    expect(signals.map((s) => s.aborted)).toEqual([true, true, true]);
  });
});

describe("background agents' reports reach an idle lead", () => {
  const finishing = () => {
    let finish!: (text: string) => void;
    const done = new Promise<{ content: string; isError: boolean }>((resolve) => (finish = (text) => resolve({ content: text, isError: false })));
    return { run: () => done, finish };
  };

  it('a report that comes while the lead is busy, after its last request, starts a turn once the lead is idle', async () => {
    const { clock, runs, state, work } = await setup(false);
    const alpha = finishing();
    const beta = finishing();
    work.agents.start({ agentType: 'general', description: 'alpha', task: 't', run: alpha.run });
    work.agents.start({ agentType: 'general', description: 'beta', task: 't', run: beta.run });
    await Promise.resolve();
    // alpha ends while the lead is idle: a turn starts at once.
    alpha.finish('report alpha');
    await waitFor(() => runs.length === 1);
    state.busy = true;
    expect(work.reminders().join('\n')).toContain('report alpha');
    // beta ends while that turn runs, after its last request: nothing may take its report yet...
    beta.finish('report beta');
    await waitFor(() => work.agents.pending === 1);
    clock.advance(600);
    expect(runs).toHaveLength(1);
    // ...and once the turn is over, the lead is asked again (before the fix, the report waited for the user's next prompt).
    state.busy = false;
    clock.advance(600);
    expect(runs).toHaveLength(2);
    expect(work.reminders().join('\n')).toContain('report beta');
  });
});
