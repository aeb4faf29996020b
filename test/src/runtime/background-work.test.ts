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
  const events: AgentEvent[] = [];
  const state = { busy };
  work = createBackgroundWork({ cwd, cairnHome: path.join(cwd, '.home'), clock, todos: new TodoList() });
  work.attach({
    get busy() {
      return state.busy;
    },
    run: (p) => runs.push(p),
    emit: (e) => events.push(e),
    runInBackground: async (p) => {
      background.push(p);
      return `report for ${p}`;
    },
  });
  work.start();
  return { clock, runs, background, events, state, work };
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
    const { clock, runs, background, events, work } = await setup(false);
    work.cron.create({ cron: '*/2 * * * *', prompt: 'summarise logs', recurring: true, autoRun: true });
    clock.advance(2 * 60_000);
    await waitFor(() => events.some((e) => e.type === 'cron' && e.status === 'auto_run_finished'));
    expect(runs).toEqual([]);
    expect(background).toEqual(['summarise logs']);
    expect(events.find((e) => e.type === 'cron' && e.status === 'auto_run_finished')).toMatchObject({ result: 'report for summarise logs' });
  });

  it('a finished background shell becomes a reminder', async () => {
    const { work, events } = await setup(false);
    const { id } = work.shells.start('echo done', os.tmpdir());
    await waitFor(() => events.some((e) => e.type === 'background_shell' && e.status === 'completed'));
    expect(work.reminders().join('\n')).toContain(id);
  });
});
