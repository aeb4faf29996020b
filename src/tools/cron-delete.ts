import * as z from 'zod';
import type { CronScheduler } from '../cron/scheduler.js';
import { errorResult } from './result.js';
import { defineTool, type Tool } from './tool.js';
import { errorMessage } from '../util/error-message.js';

const inputSchema = z.object({
  id: z.string().describe('The task id, as returned by cron_create or shown by cron_list.'),
});

export type CronDeleteInput = z.infer<typeof inputSchema>;

export function createCronDeleteTool(scheduler: CronScheduler): Tool<CronDeleteInput> {
  return defineTool<CronDeleteInput>({
    name: 'cron_delete',
    description: 'Delete a scheduled task by id (see cron_list). A durable task is also removed from .cairn/scheduled_tasks.json.',
    inputSchema,
    describe: (input) => ({ title: input.id, subject: { kind: 'input' } }),
    kind: 'other',
    effects: () => 'world',
    isConcurrencySafe: () => false,
    async call(input) {
      try {
        if (scheduler.delete(input.id.trim())) return { content: `Deleted scheduled task ${input.id.trim()}.` };
        const ids = scheduler.list().map((t) => t.id);
        return errorResult(
          `No scheduled task with id "${input.id}". ${ids.length === 0 ? 'There are no scheduled tasks.' : `Existing ids: ${ids.join(', ')}`}`,
        );
      } catch (err) {
        return errorResult(errorMessage(err));
      }
    },
  });
}
