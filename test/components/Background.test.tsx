import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBackgroundUi } from '../../components/app/background-ui.js';
import { createFakeClock } from '../../src/clock.js';
import { BUILTIN_AGENTS } from '../../src/agents/agent-definition.js';
import { createAgentTool } from '../../src/agents/agent-tool.js';
import { createPermissionChecker } from '../../src/permissions/checker.js';
import { createOfflineProvider } from '../../src/providers/offline.js';
import { createBackgroundWork } from '../../src/runtime/background-work.js';
import { connectScheduledRuns } from '../../src/runtime/session-wiring.js';
import { createBuiltinTools } from '../../src/tools/builtin.js';
import { TodoList } from '../../src/todos/todo-list.js';
import type { TodoItem } from '../../src/events.js';
import { createRig, KEYS, type RigOptions } from '../helpers/tui-rig.js';
import { waitFor } from '../helpers/wait-for.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const START = new Date(2025, 2, 1, 10, 0, 10).getTime();

/** The rig plus a real cron scheduler and shell manager on a fake clock, wired like runTui does. */
async function backgroundRig(options: RigOptions & { todos?: TodoItem[]; realAutoRuns?: boolean } = {}) {
  const rig = await createRig({ rows: 30, columns: 100, ...options });
  const clock = createFakeClock(START);
  const todos = new TodoList();
  if (options.todos) todos.replace(options.todos);
  const background = createBackgroundWork({ cwd: rig.dir, cairnHome: join(rig.dir, '.home'), clock, todos });
  if (options.realAutoRuns) {
    // The production wiring: auto runs go to a real agent tool on the offline model.
    const agent = createAgentTool({
      definitions: () => BUILTIN_AGENTS,
      provider: () => createOfflineProvider(),
      tools: () => createBuiltinTools(),
      permissions: () => createPermissionChecker({ workspace: rig.dir, cairnHome: join(rig.dir, '.home'), mode: 'default', rules: { allow: [], ask: [], deny: [] } }),
      environment: () => '',
      cwd: rig.dir,
    });
    connectScheduledRuns(rig.session, background, agent, rig.dir);
  } else {
    background.attach({
      get busy() {
        return rig.session.busy;
      },
      run: (prompt) => rig.session.run(prompt),
      emit: (event) => rig.session.emit(event),
      runInBackground: async (prompt) => `auto report for ${prompt}: all green`,
    });
  }
  const ui = startBackgroundUi({
    store: rig.store,
    session: rig.session,
    cwd: rig.dir,
    cairnHome: join(rig.dir, '.home'),
    options: { background, todos, startBackground: () => background.start() },
  });
  for (const command of ui.commands) rig.deps.commands.register(command);
  cleanups.push(() => rig.cleanup(), () => background.stop(), () => ui.dispose());
  return { rig, clock, background };
}

async function command(rig: Rig, text: string): Promise<void> {
  await rig.type(text);
  await rig.press(KEYS.enter);
}

const promptTop = (frame: string): number => frame.split('\n').findIndex((l) => l.startsWith('╭'));
const bottomRow = (frame: string): string => frame.split('\n').filter((l) => l.trim() !== '').pop() ?? '';

const LIST: TodoItem[] = [
  { content: 'Read the config', status: 'completed', activeForm: 'Reading the config' },
  { content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser' },
  { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
];

describe('todo checklist', () => {
  it('is pinned right above the prompt box while items are open, and goes once all are done', async () => {
    const { rig } = await backgroundRig();
    rig.session.emit({ type: 'todos', todos: LIST });
    const f = await rig.waitFrame((fr) => fr.includes('Fixing the parser'), 'the checklist');
    const lines = f.split('\n');
    const top = promptTop(f);
    expect(lines.slice(top - 3, top)).toEqual(['✓ Read the config', '▸ Fixing the parser', '☐ Run the tests']);
    // Completed items are struck through (and dimmed).
    expect(rig.app.lastFrame()).toMatch(/✓ \x1b\[9mRead the config/);
    rig.session.emit({ type: 'todos', todos: LIST.map((t) => ({ ...t, status: 'completed' as const })) });
    const done = await rig.waitFrame((fr) => !fr.includes('Run the tests'), 'the checklist gone');
    expect(done.split('\n')[promptTop(done) - 1]).not.toMatch(/✓/);
  });

  it('starts from the restored list on resume', async () => {
    const { rig } = await backgroundRig({ todos: LIST });
    const f = await rig.waitFrame((fr) => fr.includes('Fixing the parser'), 'the restored checklist');
    expect(f.split('\n')[promptTop(f) - 1]).toBe('☐ Run the tests');
    await command(rig, '/todos');
    await rig.waitFrame((fr) => fr.includes('Todos (1/3 done):'), '/todos');
  });
});

describe('cron notices', () => {
  it('a task firing while the user types: a card in the transcript and a toast bottom right; the draft is untouched', async () => {
    const { rig, clock, background } = await backgroundRig();
    background.cron.create({ cron: '* * * * *', prompt: 'say tick' });
    await rig.waitFrame((fr) => bottomRow(fr).includes('⏰ 1'), 'the scheduled count');
    await rig.type('half a thought');
    clock.advanceTo(START + 6 * 60_000);
    const f = await rig.waitFrame((fr) => fr.includes('cron fired') && fr.includes('⏰ fired: say tick'), 'card and toast');
    expect(f).toMatch(/⏰ cron fired [0-9a-f]{8} · \* \* \* \* \* · say tick/);
    expect(bottomRow(f)).toMatch(/⏰ fired: say tick$/);
    expect(rig.store.getSnapshot().editor.text).toBe('half a thought');
    expect(rig.store.getSnapshot().focus).toBe('editor');
    // The fired prompt started a turn of its own (the session was idle); the draft stays.
    await rig.idle();
    expect(rig.store.getSnapshot().items.some((i) => i.kind === 'user' && i.text === 'say tick')).toBe(true);
    expect(rig.frame()).toContain('half a thought');
    // The toast goes after a few seconds; the card stays.
    await waitFor(() => rig.store.getSnapshot().toasts.length === 0, { timeout: 8000, message: 'toast expiry' });
    const later = await rig.waitFrame((fr) => !fr.includes('⏰ fired: say tick'), 'toast gone');
    expect(later).toContain('cron fired');
    expect(rig.store.getSnapshot().editor.text).toBe('half a thought');
  }, 15_000);

  it('an auto-run’s result unfolds with Space in selection mode', async () => {
    const { rig, clock, background } = await backgroundRig();
    background.cron.create({ cron: '* * * * *', prompt: 'check the build', autoRun: true });
    await rig.type('draft');
    clock.advanceTo(START + 6 * 60_000);
    await rig.waitFrame((fr) => fr.includes('cron auto-run finished'), 'the auto-run card');
    expect(rig.frame()).not.toContain('all green');
    await rig.press(KEYS.ctrlO, KEYS.up, ' ');
    const f = await rig.waitFrame((fr) => fr.includes('⎿ auto report for check the build: all green'), 'the unfolded result');
    expect(f).toMatch(/▾ check the build/);
    await rig.press(KEYS.esc);
    expect(rig.store.getSnapshot().editor.text).toBe('draft');
  });
});

describe('a cron auto run has a card of its own (issue 13 item 7)', () => {
  it('shows the run live under its card; Esc on an idle prompt stops it and the card says so', async () => {
    const { rig, clock, background } = await backgroundRig({ realAutoRuns: true });
    background.cron.create({ cron: '* * * * *', prompt: 'stream 2000 at 40/s', autoRun: true });
    await rig.type('half a thought');
    clock.advanceTo(START + 60_000);
    await rig.waitFrame((fr) => /agent general: scheduled task \w+/.test(fr) && fr.includes('turn 1'), 'the auto run live in its card');
    expect(rig.store.getSnapshot().busy).toBe(false);
    expect(background.autoRunning()).toHaveLength(1);
    rig.settle();
    await rig.press(KEYS.esc);
    await waitFor(() => background.autoRunning().length === 0, { message: 'the run stopped' });
    // ■: the card's interrupted mark (a failure would read ✗, a finished run ✓).
    const stopped = await rig.waitFrame((fr) => /■ agent general: scheduled task/.test(fr), 'the card marked interrupted');
    expect(stopped).toContain('auto-run finished');
    expect(rig.store.getSnapshot().items.find((i) => i.kind === 'tool')).toMatchObject({ status: 'interrupted', background: true });
    expect(rig.store.getSnapshot().editor.text).toBe('half a thought');
  }, 20_000);
});

describe('cron toasts go with their tasks (issue 12 item 19)', () => {
  it('deleting a task that fired takes its toast; /cron clear takes a test run\'s', async () => {
    const { rig, clock, background } = await backgroundRig();
    const task = background.cron.create({ cron: '* * * * *', prompt: 'say tick' });
    clock.advanceTo(START + 6 * 60_000);
    await rig.waitFrame((fr) => bottomRow(fr).includes('⏰ fired: say tick'), 'the toast');
    await rig.idle();
    await command(rig, `/cron delete ${task.id}`);
    await rig.waitFrame((fr) => fr.includes(`Deleted scheduled task ${task.id}.`), 'deleted');
    expect(bottomRow(rig.frame())).not.toContain('⏰ fired');
    expect(rig.store.getSnapshot().toasts).toEqual([]);

    await command(rig, '/cron test ping');
    await rig.waitFrame((fr) => bottomRow(fr).includes('⏰ fired: ping'), 'the test run toast');
    await rig.idle();
    await command(rig, '/cron clear');
    await rig.waitFrame((fr) => fr.includes('Deleted 0 scheduled tasks.'), 'cleared');
    expect(bottomRow(rig.frame())).not.toContain('⏰');
  });
});

describe('/cron, /bashes, /agents', () => {
  it('/cron lists tasks with the next run and the lock status; delete, clear, test', async () => {
    const { rig, background } = await backgroundRig();
    const task = background.cron.create({ cron: '*/5 * * * *', prompt: 'check the build' });
    background.cron.create({ cron: '0 9 * * 1', prompt: 'weekly report', durable: true });
    await command(rig, '/cron');
    let f = await rig.waitFrame((fr) => fr.includes('Scheduled tasks (2):'), '/cron');
    expect(f).toMatch(new RegExp(`${task.id}\\s+\\*/5 \\* \\* \\* \\*\\s+next 2025-03-01 10:05\\s+session, recurring\\s+check the build`));
    expect(f).toMatch(/0 9 \* \* 1\s+next 2025-03-03 09:0\d\s+durable, recurring\s+weekly report/);
    expect(f).toContain('Scheduler: this cairn fires scheduled tasks here (1 session, 1 durable task).');
    expect(bottomRow(f)).toContain('⏰ 2');

    await command(rig, `/cron delete ${task.id}`);
    await rig.waitFrame((fr) => fr.includes(`Deleted scheduled task ${task.id}.`), 'delete');
    await rig.waitFrame((fr) => bottomRow(fr).includes('⏰ 1'), 'count after delete');
    await command(rig, '/cron delete nope');
    await rig.waitFrame((fr) => fr.includes('No scheduled task "nope". /cron lists them.'), 'unknown id');
    await command(rig, '/cron clear durable');
    await rig.waitFrame((fr) => fr.includes('Deleted 1 durable scheduled task.'), 'clear durable');
    await rig.waitFrame((fr) => !/⏰ \d/.test(bottomRow(fr)), 'no tasks left');
    await command(rig, '/cron test ping the team');
    f = await rig.waitFrame((fr) => fr.includes('Fired a test run'), 'test fire');
    expect(f).toMatch(/cron fired test-[0-9a-f]+ · test · ping the team/);
    await command(rig, '/cron bogus');
    await rig.waitFrame((fr) => fr.includes('Unknown /cron subcommand "bogus"'), 'bad subcommand');
  });

  it('/bashes lists shells with status, kills one; the status bar counts running shells', async () => {
    const { rig, background } = await backgroundRig();
    const { id } = background.shells.start('sleep 30', rig.dir);
    const quick = background.shells.start('echo done', rig.dir);
    await rig.waitFrame((fr) => fr.includes(`Background shell ${quick.id} completed (exit code 0): echo done`), 'completion notice');
    await rig.waitFrame((fr) => bottomRow(fr).includes('⚙ 1'), 'running count');
    await command(rig, '/bashes');
    const f = await rig.waitFrame((fr) => fr.includes('Background shells (1 running):'), '/bashes');
    expect(f).toMatch(new RegExp(`${id}\\s+running\\s+sleep 30`));
    expect(f).toMatch(new RegExp(`${quick.id}\\s+completed \\(exit 0\\)\\s+echo done`));
    await command(rig, `/bashes kill ${id}`);
    await rig.waitFrame((fr) => fr.includes(`Killed background shell ${id}.`), 'killed');
    // The toast may still say "⚙ sleep 30 killed"; the count is gone.
    await rig.waitFrame((fr) => !/⚙ \d/.test(bottomRow(fr)), 'no running shells');
    await command(rig, '/bashes kill nope');
    await rig.waitFrame((fr) => fr.includes('No running background shell "nope"'), 'unknown shell');
  });

  it('/bashes unwatch <id> stops the model watching a shell: a notice says so, the shell runs on', async () => {
    const { rig, background } = await backgroundRig();
    const { id } = background.shells.start('sleep 30', rig.dir);
    expect(background.watches.start(id, { pattern: 'ERROR' }).ok).toBe(true);
    await command(rig, `/bashes unwatch ${id}`);
    await rig.waitFrame((fr) => fr.includes(`Stopped watching ${id}: the user stopped the watch`), 'the stop notice');
    expect(background.watches.list()).toEqual([]);
    expect(background.watches.drainNotes().join('\n')).toContain(`Stopped watching the background shell ${id}: the user stopped the watch.`);
    expect(background.shells.list().find((s) => s.id === id)?.status).toBe('running');
    await command(rig, `/bashes unwatch ${id}`);
    await rig.waitFrame((fr) => fr.includes(`The model is not watching "${id}".`), 'not watched');
  });

  it('/bashes <id> shows what a shell printed so far, and the model still gets it unread', async () => {
    const { rig, background } = await backgroundRig();
    const { id } = background.shells.start("printf 'first line\\nsecond line\\n'; sleep 30", rig.dir);
    await waitFor(() => background.shells.output(id)?.text.includes('second line') === true, { message: 'the output' });
    await command(rig, `/bashes ${id}`);
    const f = await rig.waitFrame((fr) => fr.includes('second line'), '/bashes <id>');
    const lines = f.split('\n');
    const at = lines.findIndex((l) => l.includes(`${id} running: printf`));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines.slice(at + 1, at + 3).map((l) => l.trim())).toEqual(['first line', 'second line']);
    expect(background.shells.read(id)?.newOutput).toBe('first line\nsecond line\n');
    await command(rig, '/bashes bash_99');
    await rig.waitFrame((fr) => fr.includes(`No background shell "bash_99". Known: ${id}.`), 'unknown id');
    await background.shells.kill(id);
  });

  it('/agents lists the types with description and source, and names a bad definition file', async () => {
    const { rig } = await backgroundRig();
    await mkdir(join(rig.dir, '.cairn', 'agents'), { recursive: true });
    await writeFile(join(rig.dir, '.cairn', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews diffs\n---\nReview.');
    await writeFile(join(rig.dir, '.cairn', 'agents', 'broken.md'), 'no frontmatter');
    await command(rig, '/agents');
    const f = await rig.waitFrame((fr) => fr.includes('Agent types (3):'), '/agents');
    expect(f).toMatch(/explore — Read-only exploration/);
    expect(f).toMatch(/general — A general-purpose agent/);
    expect(f).toMatch(/reviewer — Reviews diffs\s+\S*reviewer\.md/);
    expect(f).toMatch(/Skipped \S*broken\.md: no YAML frontmatter/);
  });
});
