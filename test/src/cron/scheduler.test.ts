import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock, type FakeClock } from '../../../src/clock.js';
import { cronLockPath } from '../../../src/cron/lock.js';
import { createCronScheduler, type CronScheduler, type CronSchedulerOptions } from '../../../src/cron/scheduler.js';
import { scheduledTasksPath } from '../../../src/cron/store.js';
import { jitterMinutes } from '../../../src/cron/timing.js';
import type { CronEvent, FiredTask } from '../../../src/cron/types.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
// Monday 2025-01-06 08:00 local time.
const START = new Date(2025, 0, 6, 8, 0).getTime();
const at = (d: number, h: number, m = 0): number => new Date(2025, 0, d, h, m).getTime();

let dir: string;
/** $CAIRN_HOME of the test: beside the workspace, not in it. */
const home = (): string => `${dir}-home`;
const children: ChildProcess[] = [];
const running: CronScheduler[] = [];

interface Harness {
  scheduler: CronScheduler;
  clock: FakeClock;
  fired: FiredTask[];
  events: CronEvent[];
  notices: string[];
}

function harness(clock: FakeClock = createFakeClock(START), extra: Partial<CronSchedulerOptions> = {}): Harness {
  const fired: FiredTask[] = [];
  const events: CronEvent[] = [];
  const notices: string[] = [];
  const scheduler = createCronScheduler({
    cwd: dir,
    cairnHome: home(),
    clock,
    onFire: (f) => fired.push(f),
    onEvent: (e) => events.push(e),
    onNotice: (_level, message) => notices.push(message),
    ...extra,
  });
  running.push(scheduler);
  return { scheduler, clock, fired, events, notices };
}

function readStore(): { tasks: { id: string; lastRunAt?: number }[] } {
  return JSON.parse(fs.readFileSync(scheduledTasksPath(dir), 'utf8')) as { tasks: { id: string; lastRunAt?: number }[] };
}

function spawnSleeper(): Promise<ChildProcess> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child));
    child.once('error', reject);
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cron-')));
});
afterEach(() => {
  for (const s of running.splice(0)) s.stop();
  for (const c of children.splice(0)) c.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(home(), { recursive: true, force: true });
});

describe('firing', () => {
  it('with no task, wakes only to look at the shared file every 5 s, not every second; a new task is on time', () => {
    const clock = createFakeClock(START);
    let wakeUps = 0;
    const counting: FakeClock = { ...clock, setTimeout: (fn: () => void, ms: number) => clock.setTimeout(() => (wakeUps++, fn()), ms) };
    const h = harness(counting);
    h.scheduler.start();
    clock.advance(60_000);
    expect(wakeUps).toBeLessThanOrEqual(12);
    expect(wakeUps).toBeGreaterThanOrEqual(11);
    const task = h.scheduler.create({ cron: '* * * * *', prompt: 'soon' });
    clock.advanceTo((task.nextRunAt ?? 0) + 1000);
    expect(h.fired.map((f) => f.prompt)).toEqual(['soon']);
  });

  it('fires a recurring task at each match, at most once per minute, with its prompt', () => {
    const h = harness();
    h.scheduler.start();
    const task = h.scheduler.create({ cron: '15,45 * * * *', prompt: 'check the build' });
    expect(task.nextRunAt).toBe(at(6, 8, 15));
    h.clock.advanceTo(at(6, 8, 15) - 1000);
    expect(h.fired).toHaveLength(0);
    h.clock.advance(2 * HOUR);
    expect(h.fired.map((f) => f.prompt)).toEqual(Array(4).fill('check the build'));
    expect(h.fired[0]).toMatchObject({ autoRun: false, task: { id: task.id, recurring: true } });
    expect(h.events.filter((e) => e.status === 'fired')).toHaveLength(4);
    expect(h.scheduler.list()[0]?.nextRunAt).toBe(at(6, 10, 15));
  });

  it('fires every minute for * * * * * without doubling up', () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.create({ cron: '* * * * *', prompt: 'tick' });
    h.clock.advance(10 * MIN);
    expect(h.fired).toHaveLength(10);
  });

  it('passes auto_run through and reports auto-run results as events', () => {
    const h = harness();
    h.scheduler.start();
    const task = h.scheduler.create({ cron: '20 8 * * *', prompt: 'summarize logs', autoRun: true });
    h.clock.advance(21 * MIN);
    expect(h.fired).toEqual([expect.objectContaining({ autoRun: true, prompt: 'summarize logs' })]);
    h.scheduler.reportAutoRun(task.id, 'all quiet');
    expect(h.events.at(-1)).toEqual({
      type: 'cron',
      task_id: task.id,
      schedule: '20 8 * * *',
      prompt: 'summarize logs',
      status: 'auto_run_finished',
      result: 'all quiet',
    });
  });

  it('removes a one-shot task after it fires', () => {
    const h = harness();
    h.scheduler.start();
    const task = h.scheduler.create({ cron: '10 * * * *', prompt: 'once', recurring: false });
    h.clock.advance(3 * HOUR);
    expect(h.fired).toHaveLength(1);
    expect(h.scheduler.list()).toEqual([]);
    expect(h.events.map((e) => e.status)).toEqual(['created', 'fired', 'deleted']);
    expect(h.scheduler.delete(task.id)).toBe(false);
  });

  it('removes a durable one-shot task from the file after it fires', () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.create({ cron: '10 * * * *', prompt: 'once', recurring: false, durable: true });
    expect(readStore().tasks).toHaveLength(1);
    h.clock.advance(HOUR);
    expect(h.fired).toHaveLength(1);
    expect(readStore().tasks).toEqual([]);
  });

  it('fireNow delivers a prompt at once without storing a task', () => {
    const h = harness();
    const f = h.scheduler.fireNow('  say hello ');
    expect(h.fired).toEqual([f]);
    expect(f).toMatchObject({ prompt: 'say hello', autoRun: false });
    expect(h.events).toEqual([expect.objectContaining({ status: 'fired', prompt: 'say hello' })]);
    expect(h.scheduler.list()).toEqual([]);
  });

  it('keeps ticking when onFire throws, and reports it', () => {
    let calls = 0;
    const h = harness(createFakeClock(START), {
      onFire: () => {
        calls++;
        throw new Error('queue full');
      },
    });
    h.scheduler.start();
    h.scheduler.create({ cron: '* * * * *', prompt: 'x' });
    h.clock.advance(3 * MIN);
    expect(calls).toBe(3);
    expect(h.notices[0]).toMatch(/could not be delivered: queue full/);
  });

  it('delete and clear remove tasks (clear durableOnly keeps session ones)', () => {
    const h = harness();
    h.scheduler.start();
    const a = h.scheduler.create({ cron: '1 * * * *', prompt: 'a' });
    h.scheduler.create({ cron: '2 * * * *', prompt: 'b', durable: true });
    h.scheduler.create({ cron: '3 * * * *', prompt: 'c', durable: true });
    expect(h.scheduler.clear({ durableOnly: true })).toBe(2);
    expect(readStore().tasks).toEqual([]);
    expect(h.scheduler.list().map((t) => t.id)).toEqual([a.id]);
    expect(h.scheduler.delete(a.id)).toBe(true);
    h.clock.advance(2 * HOUR);
    expect(h.fired).toEqual([]);
  });
});

describe('jitter', () => {
  it('moves runs landing on :00 or :30 by the task’s 1-4 minutes, deterministically', () => {
    const h = harness();
    h.scheduler.start();
    const offsets = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const t = h.scheduler.create({ cron: i % 2 ? '0 9 * * *' : '30 9 * * *', prompt: `task ${i}` });
      const base = i % 2 ? at(6, 9, 0) : at(6, 9, 30);
      const offset = t.nextRunAt! - base;
      expect(offset).toBe(jitterMinutes(t) * MIN);
      expect(offset).toBeGreaterThanOrEqual(MIN);
      expect(offset).toBeLessThanOrEqual(4 * MIN);
      offsets.add(offset);
    }
    expect(offsets.size).toBeGreaterThan(1);
    expect(jitterMinutes({ id: 'abc', cron: '0 9 * * *', prompt: 'p' })).toBe(jitterMinutes({ id: 'abc', cron: '0 9 * * *', prompt: 'p' }));
    h.scheduler.clear();
  });

  it('fires at the jittered time, not before', () => {
    const h = harness();
    h.scheduler.start();
    const t = h.scheduler.create({ cron: '0 9 * * *', prompt: 'standup' });
    h.clock.advanceTo(t.nextRunAt! - 1000);
    expect(h.fired).toHaveLength(0);
    h.clock.advance(2000);
    expect(h.fired).toHaveLength(1);
  });

  it('leaves other minutes alone and never jitters past the next run', () => {
    const h = harness();
    h.scheduler.start();
    expect(h.scheduler.create({ cron: '15 9 * * *', prompt: 'a' }).nextRunAt).toBe(at(6, 9, 15));
    expect(h.scheduler.create({ cron: '1-59 * * * *', prompt: 'b' }).nextRunAt).toBe(at(6, 8, 1));
    // Every minute: :00 gets no jitter, there is no room before the next run.
    const every = h.scheduler.create({ cron: '* 9 * * *', prompt: 'c' });
    expect(every.nextRunAt).toBe(at(6, 9, 0));
    // */15: :00 and :30 move, :15 and :45 do not.
    const q = h.scheduler.create({ cron: '*/15 * * * *', prompt: 'd' });
    expect(q.nextRunAt).toBe(at(6, 8, 15));
  });
});

describe('durable tasks, expiry and missed runs', () => {
  it('stores durable tasks in .cairn/scheduled_tasks.json and a new scheduler loads them', () => {
    const a = harness();
    a.scheduler.start();
    const t = a.scheduler.create({ cron: '0 12 * * *', prompt: 'lunch', durable: true });
    a.scheduler.create({ cron: '0 12 * * *', prompt: 'session only' });
    a.scheduler.stop();
    expect(readStore().tasks.map((x) => x.id)).toEqual([t.id]);
    const b = harness(createFakeClock(START + MIN));
    b.scheduler.start();
    expect(b.scheduler.list()).toEqual([expect.objectContaining({ id: t.id, durable: true, prompt: 'lunch', nextRunAt: t.nextRunAt })]);
    expect(b.scheduler.missedOnStart()).toEqual([]);
  });

  it('reports a run missed while no cairn ran, once, and records it', () => {
    const a = harness();
    a.scheduler.start();
    const t = a.scheduler.create({ cron: '0 9 * * *', prompt: 'daily report', durable: true });
    const due = t.nextRunAt!;
    a.scheduler.stop();

    const b = harness(createFakeClock(at(6, 12)));
    b.scheduler.start();
    const missed = b.scheduler.missedOnStart();
    const hh = new Date(due).getMinutes().toString().padStart(2, '0');
    expect(missed).toEqual([
      expect.objectContaining({
        dueAt: due,
        missedCount: 1,
        prompt: `[Missed scheduled task ${t.id} "0 9 * * *": daily report — it was due at 2025-01-06 09:${hh}; decide whether to catch up]`,
      }),
    ]);
    expect(b.events).toEqual([expect.objectContaining({ status: 'missed', task_id: t.id, result: missed[0]!.prompt })]);
    expect(b.fired).toEqual([]);
    b.scheduler.stop();

    const c = harness(createFakeClock(at(6, 12, 5)));
    c.scheduler.start();
    expect(c.scheduler.missedOnStart()).toEqual([]);
    // Still scheduled for tomorrow.
    expect(c.scheduler.list()[0]?.nextRunAt).toBe(due + DAY);
  });

  it('reports nothing when restarted before the next run', () => {
    const a = harness();
    a.scheduler.start();
    a.scheduler.create({ cron: '0 9 * * *', prompt: 'daily', durable: true });
    a.clock.advance(30 * MIN);
    a.scheduler.stop();
    const b = harness(createFakeClock(at(6, 8, 45)));
    b.scheduler.start();
    expect(b.scheduler.missedOnStart()).toEqual([]);
  });

  it('reports nothing when the last run was after the last due time', () => {
    const a = harness();
    a.scheduler.start();
    a.scheduler.create({ cron: '20 * * * *', prompt: 'hourly', durable: true });
    a.clock.advance(90 * MIN); // fired at 08:20 and 09:20
    expect(a.fired).toHaveLength(2);
    a.scheduler.stop();
    const b = harness(createFakeClock(at(6, 10, 10)));
    b.scheduler.start();
    expect(b.scheduler.missedOnStart()).toEqual([]);
  });

  it('looks back at most 24 hours', () => {
    const a = harness();
    a.scheduler.start();
    const daily = a.scheduler.create({ cron: '0 9 * * *', prompt: 'daily', durable: true });
    // Mondays only: its one run (Mon 09:0x) is more than 24 h before the restart.
    a.scheduler.create({ cron: '0 9 * * 1', prompt: 'weekly', durable: true });
    a.scheduler.stop();
    // Three days later, Thursday 10:00: Mon, Tue, Wed and Thu 09:0x passed; only Wed and Thu are within 24 h.
    const b = harness(createFakeClock(at(9, 10)));
    b.scheduler.start();
    const missed = b.scheduler.missedOnStart();
    expect(missed.map((m) => m.task.id)).toEqual([daily.id]);
    expect(missed[0]).toMatchObject({ missedCount: 1, dueAt: daily.nextRunAt! + 3 * DAY });
  });

  it('drops a missed one-shot task once reported', () => {
    const a = harness();
    a.scheduler.start();
    a.scheduler.create({ cron: '0 9 * * *', prompt: 'once', durable: true, recurring: false });
    a.scheduler.stop();
    const b = harness(createFakeClock(at(6, 11)));
    b.scheduler.start();
    expect(b.scheduler.missedOnStart()).toHaveLength(1);
    expect(b.scheduler.list()).toEqual([]);
    expect(readStore().tasks).toEqual([]);
  });

  it('expires recurring tasks after expiryDays, removing durable ones from the file', () => {
    const h = harness(createFakeClock(START), { expiryDays: 1 });
    h.scheduler.start();
    const t = h.scheduler.create({ cron: '30 * * * *', prompt: 'hourly', durable: true });
    h.clock.advance(DAY - MIN);
    expect(h.scheduler.list()).toHaveLength(1);
    const firedBefore = h.fired.length;
    expect(firedBefore).toBe(24);
    h.clock.advance(2 * HOUR);
    expect(h.scheduler.list()).toEqual([]);
    expect(readStore().tasks).toEqual([]);
    expect(h.fired.length).toBe(firedBefore);
    expect(h.events.at(-1)).toMatchObject({ task_id: t.id, status: 'deleted', result: expect.stringMatching(/expired/) });
  });

  it('expires after 7 days by default, also when loaded after a restart', () => {
    const a = harness();
    a.scheduler.start();
    a.scheduler.create({ cron: '0 0 1 * *', prompt: 'monthly', durable: true });
    a.scheduler.stop();
    const b = harness(createFakeClock(START + 7 * DAY - MIN));
    b.scheduler.start();
    expect(b.scheduler.list()).toHaveLength(1);
    b.scheduler.stop();
    const c = harness(createFakeClock(START + 7 * DAY));
    c.scheduler.start();
    expect(c.scheduler.list()).toEqual([]);
    expect(readStore().tasks).toEqual([]);
  });

  it('picks up durable tasks another cairn wrote to the file, and fires them', () => {
    const h = harness();
    h.scheduler.start();
    fs.mkdirSync(path.dirname(scheduledTasksPath(dir)), { recursive: true });
    fs.writeFileSync(
      scheduledTasksPath(dir),
      JSON.stringify({ version: 1, tasks: [{ id: 'other1', cron: '10 8 * * *', prompt: 'from B', recurring: true, createdAt: START }] }),
    );
    h.clock.advance(11 * MIN);
    expect(h.fired.map((f) => f.task.id)).toEqual(['other1']);
    expect(readStore().tasks[0]?.lastRunAt).toBe(h.fired[0]?.task.lastRunAt);
  });

  it('reports a corrupt file naming it, refuses to overwrite it, and keeps session tasks working', () => {
    const file = scheduledTasksPath(dir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version": 1, "tasks": [');
    const h = harness();
    h.scheduler.start();
    expect(h.notices[0]).toContain(`${file} is not valid JSON`);
    expect(h.scheduler.status().line).toContain(file);
    expect(() => h.scheduler.create({ cron: '* * * * *', prompt: 'x', durable: true })).toThrow(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON.*not overwriting it`),
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version": 1, "tasks": [');
    h.scheduler.create({ cron: '* * * * *', prompt: 'session' });
    h.clock.advance(MIN);
    expect(h.fired).toHaveLength(1);
  });

  it('names the field of a malformed task record', () => {
    const file = scheduledTasksPath(dir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ version: 1, tasks: [{ id: 'x', cron: 5, prompt: 'p', recurring: true, createdAt: 1 }] }));
    const h = harness();
    h.scheduler.start();
    expect(h.notices[0]).toMatch(/scheduled_tasks\.json is malformed: tasks\[0\]\.cron: /);
  });
});

describe('files (issue 12 item 15)', () => {
  it('starting leaves the workspace untouched: the lock lives under $CAIRN_HOME', () => {
    const h = harness();
    h.scheduler.start();
    expect(h.scheduler.isLeader).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(cronLockPath(home(), dir).startsWith(path.join(home(), 'locks') + path.sep)).toBe(true);
    expect(fs.readFileSync(cronLockPath(home(), dir), 'utf8').trim()).toBe(String(process.pid));
    // Another workspace gets a lock of its own.
    expect(cronLockPath(home(), path.join(dir, 'other'))).not.toBe(cronLockPath(home(), dir));
  });

  it('the first durable task writes .cairn/ with a .gitignore that covers the task file', () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.create({ cron: '5 * * * *', prompt: 'durable', durable: true });
    expect(fs.readdirSync(path.join(dir, '.cairn')).sort()).toEqual(['.gitignore', 'scheduled_tasks.json']);
    expect(fs.readFileSync(path.join(dir, '.cairn', '.gitignore'), 'utf8').split('\n')).toContain('scheduled_tasks.json');
  });
});

describe('one process fires', () => {
  it('does not fire durable tasks while a live process holds the lock, then takes over when it is gone', async () => {
    const holder = await spawnSleeper();
    fs.mkdirSync(path.dirname(cronLockPath(home(), dir)), { recursive: true });
    fs.writeFileSync(cronLockPath(home(), dir), `${holder.pid}\n`);

    const h = harness();
    h.scheduler.start();
    expect(h.scheduler.isLeader).toBe(false);
    expect(h.scheduler.status().line).toContain(`another cairn (pid ${holder.pid}) is firing tasks here`);
    h.scheduler.create({ cron: '5 * * * *', prompt: 'durable', durable: true });
    h.scheduler.create({ cron: '5 * * * *', prompt: 'session' });
    h.clock.advance(10 * MIN);
    // Session-only tasks belong to this session; the durable one is the holder's to fire.
    expect(h.fired.map((f) => f.prompt)).toEqual(['session']);
    expect(fs.readFileSync(cronLockPath(home(), dir), 'utf8').trim()).toBe(String(holder.pid));

    holder.kill('SIGKILL');
    await exited(holder);
    h.clock.advance(10_000);
    expect(h.scheduler.isLeader).toBe(true);
    expect(fs.readFileSync(cronLockPath(home(), dir), 'utf8').trim()).toBe(String(process.pid));
    h.clock.advanceTo(at(6, 9, 6));
    expect(h.fired.map((f) => f.prompt).sort()).toEqual(['durable', 'session', 'session']);

    h.scheduler.stop();
    expect(fs.existsSync(cronLockPath(home(), dir))).toBe(false);
  });

  it('takes a lock left by a dead process at start', async () => {
    const gone = spawn('true', { stdio: 'ignore' });
    children.push(gone);
    await exited(gone);
    fs.mkdirSync(path.dirname(cronLockPath(home(), dir)), { recursive: true });
    fs.writeFileSync(cronLockPath(home(), dir), `${gone.pid}\n`);
    const h = harness();
    h.scheduler.start();
    expect(h.scheduler.isLeader).toBe(true);
    expect(h.scheduler.status().line).toMatch(/^this cairn fires scheduled tasks here/);
  });

  it('a second cairn process in the workspace does not take the lock from a live holder', async () => {
    const h = harness();
    h.scheduler.start();
    expect(h.scheduler.isLeader).toBe(true);
    // A real second process using the same lock module (transpiled: it imports only node built-ins).
    const js = ts.transpileModule(fs.readFileSync(path.resolve('src/cron/lock.ts'), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const mod = path.join(dir, 'lock-copy.mjs');
    fs.writeFileSync(mod, js);
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(pathToFileURL(mod).href)}); console.log(JSON.stringify(m.createCronLock(m.cronLockPath(${JSON.stringify(home())}, ${JSON.stringify(dir)})).tryAcquire()));`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await exited(child);
    expect(err).toBe('');
    expect(JSON.parse(out)).toEqual({ leader: false, holderPid: process.pid });
  });
});
