import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFakeClock } from '../../../src/clock.js';
import { createCronScheduler, type CronScheduler } from '../../../src/cron/scheduler.js';
import { scheduledTasksPath } from '../../../src/cron/store.js';
import type { FiredTask } from '../../../src/cron/types.js';
import { planFor } from '../../../src/providers/offline-script.js';
import { createCronCreateTool } from '../../../src/tools/cron-create.js';
import { createCronDeleteTool } from '../../../src/tools/cron-delete.js';
import { createCronListTool } from '../../../src/tools/cron-list.js';
import type { ToolContext } from '../../../src/tools/tool.js';

const START = new Date(2025, 0, 6, 8, 0).getTime();
let dir: string;
let scheduler: CronScheduler;
let fired: FiredTask[];
let clock = createFakeClock(START);

const ctx = (): ToolContext => ({ cwd: dir, signal: new AbortController().signal });

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cron-tools-')));
  fired = [];
  clock = createFakeClock(START);
  scheduler = createCronScheduler({ cwd: dir, cairnHome: path.join(dir, '.home'), clock, onFire: (f) => fired.push(f), onEvent: () => {} });
  scheduler.start();
});
afterEach(() => {
  scheduler.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('cron tools', () => {
  it('cron_create schedules a task and says when it runs next', async () => {
    const tool = createCronCreateTool(scheduler);
    const r = await tool.call(tool.inputSchema.parse({ cron: '15 9 * * 1-5', prompt: 'run the tests' }), ctx());
    expect(r.isError).toBeFalsy();
    expect(r.content).toMatch(/^Scheduled task [0-9a-f]{8} "15 9 \* \* 1-5" \(recurring, session-only\): next run 2025-01-06 09:15 \(local time\)\.$/);
    expect(scheduler.list()).toEqual([expect.objectContaining({ prompt: 'run the tests', recurring: true, durable: false, autoRun: false })]);
    clock.advance(76 * 60_000);
    expect(fired.map((f) => f.prompt)).toEqual(['run the tests']);
  });

  it('cron_create maps recurring, durable and auto_run', async () => {
    const tool = createCronCreateTool(scheduler);
    const r = await tool.call({ cron: '5 * * * *', prompt: 'p', recurring: false, durable: true, auto_run: true }, ctx());
    expect(r.content).toContain('(one-shot, durable, auto-run)');
    expect(JSON.parse(fs.readFileSync(scheduledTasksPath(dir), 'utf8')).tasks).toEqual([
      expect.objectContaining({ prompt: 'p', recurring: false, autoRun: true }),
    ]);
  });

  it('cron_create rejects a bad expression naming the field, and schedules nothing', async () => {
    const tool = createCronCreateTool(scheduler);
    const r = await tool.call({ cron: '61 * * * *', prompt: 'x' }, ctx());
    expect(r).toMatchObject({ isError: true, content: 'cron "61 * * * *": minute field: 61 is out of range 0-59' });
    const six = await tool.call({ cron: '0 0 * * * *', prompt: 'x' }, ctx());
    expect(six.content).toMatch(/seconds fields are not supported/);
    expect(scheduler.list()).toEqual([]);
  });

  it('cron_create goes through the permission chain; cron_list does not need to', () => {
    const create = createCronCreateTool(scheduler);
    const list = createCronListTool(scheduler);
    const del = createCronDeleteTool(scheduler);
    expect(create.kind).toBe('other');
    expect(create.effects?.({ cron: '* * * * *', prompt: 'x' })).toBe('world');
    expect(del.effects?.({ id: 'x' })).toBe('world');
    expect(list.effects?.({})).toBe('none');
    expect(list.isConcurrencySafe?.({})).toBe(true);
  });

  it('accepts the input the offline script sends for `schedule "<cron>" <prompt>`', () => {
    const plan = planFor('schedule "*/5 * * * *" check the deploy durable');
    expect(plan.kind).toBe('tools');
    const call = plan.kind === 'tools' ? plan.steps[0]?.[0] : undefined;
    expect(call?.name).toBe('cron_create');
    const parsed = createCronCreateTool(scheduler).inputSchema.safeParse(call?.input);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({ cron: '*/5 * * * *', recurring: true, durable: true });
  });

  it('cron_list shows tasks with id, kind, next run and prompt', async () => {
    const list = createCronListTool(scheduler);
    expect((await list.call({}, ctx())).content).toBe('No scheduled tasks.');
    const t = scheduler.create({ cron: '45 8 * * *', prompt: 'coffee', durable: true });
    const r = await list.call({}, ctx());
    expect(r.content).toBe(`${t.id}  "45 8 * * *"  recurring, durable  next 2025-01-06 08:45  — coffee`);
  });

  it('cron_delete removes a task and lists the ids when the id is unknown', async () => {
    const del = createCronDeleteTool(scheduler);
    const t = scheduler.create({ cron: '45 8 * * *', prompt: 'coffee' });
    const miss = await del.call({ id: 'nope' }, ctx());
    expect(miss).toMatchObject({ isError: true, content: `No scheduled task with id "nope". Existing ids: ${t.id}` });
    expect((await del.call({ id: t.id }, ctx())).content).toBe(`Deleted scheduled task ${t.id}.`);
    expect(scheduler.list()).toEqual([]);
  });

  it('every cron tool has described, JSON-Schema-expressible input', () => {
    for (const tool of [createCronCreateTool(scheduler), createCronListTool(scheduler), createCronDeleteTool(scheduler)]) {
      const schema = z.toJSONSchema(tool.inputSchema) as { type: string; properties: Record<string, { description?: string }> };
      expect(schema.type).toBe('object');
      for (const [field, prop] of Object.entries(schema.properties)) expect(prop.description, `${tool.name}.${field}`).toBeTruthy();
    }
  });
});
