import * as z from 'zod';
import { formatLocalTime, type CronScheduler } from '../cron/scheduler.js';
import type { CronTaskInfo } from '../cron/types.js';
import { defineTool, type Tool } from './tool.js';

const inputSchema = z.object({});

export type CronListInput = z.infer<typeof inputSchema>;

export function formatCronTask(t: CronTaskInfo): string {
  const kind = [t.recurring ? 'recurring' : 'one-shot', t.durable ? 'durable' : 'session-only'];
  if (t.autoRun) kind.push('auto-run');
  const next = t.nextRunAt === undefined ? 'no future run' : `next ${formatLocalTime(t.nextRunAt)}`;
  return `${t.id}  "${t.cron}"  ${kind.join(', ')}  ${next}  — ${t.prompt}`;
}

export function createCronListTool(scheduler: CronScheduler): Tool<CronListInput> {
  return defineTool<CronListInput>({
    name: 'cron_list',
    description: 'List the scheduled tasks (session-only and durable) with their id, cron expression, kind, next run (local time) and prompt.',
    inputSchema,
    describe: () => ({ title: 'scheduled tasks', subject: { kind: 'input' } }),
    kind: 'other',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    async call() {
      const tasks = scheduler.list();
      const status = scheduler.status();
      const lines = tasks.length === 0 ? ['No scheduled tasks.'] : tasks.map(formatCronTask);
      if (!status.isLeader || status.storeError) lines.push('', `Note: ${status.line}`);
      return { content: lines.join('\n'), display: { kind: 'cron_list', count: tasks.length } };
    },
  });
}
