import * as z from 'zod';
import { CRON_SYNTAX_HELP } from '../cron/expression.js';
import { DEFAULT_EXPIRY_DAYS, formatLocalTime, type CronScheduler } from '../cron/scheduler.js';
import { errorResult } from './result.js';
import { defineTool, type Tool } from './tool.js';
import { errorMessage } from '../util/error-message.js';
import { titleLine } from './call-view.js';

const inputSchema = z.object({
  cron: z
    .string()
    .describe('Standard 5-field cron expression in local time: "minute hour day-of-month month day-of-week", e.g. "*/15 * * * *" or "0 9 * * 1-5".'),
  prompt: z.string().describe('The prompt to run when the task fires, written as a complete instruction.'),
  recurring: z
    .boolean()
    .optional()
    .describe('true (default): fire on every match. false: fire once at the next match, then delete the task.'),
  durable: z
    .boolean()
    .optional()
    .describe('true: keep the task across cairn restarts (stored in .cairn/scheduled_tasks.json). false (default): this session only.'),
  auto_run: z
    .boolean()
    .optional()
    .describe('true: run the prompt as a background subagent instead of adding it to this conversation. Default false.'),
});

export type CronCreateInput = z.infer<typeof inputSchema>;

const description = `Schedule a prompt to run later or on a recurring schedule.
- cron: ${CRON_SYNTAX_HELP}. Times are local. No seconds field.
- Recurring tasks expire ${DEFAULT_EXPIRY_DAYS} days after creation. Tasks that land on :00 or :30 fire 1-4 minutes late on purpose, to spread load.
- Session-only tasks (the default) end with this session; durable ones survive restarts, and runs missed while cairn was closed are reported on the next start.
- A fired prompt is handled like a user prompt, with the same permissions: scheduling grants nothing.
- Use cron_list to see tasks and cron_delete to remove one.`;

export function createCronCreateTool(scheduler: CronScheduler): Tool<CronCreateInput> {
  return defineTool<CronCreateInput>({
    name: 'cron_create',
    description,
    inputSchema,
    describe: (input) => ({ title: `${input.cron} · ${titleLine(input.prompt)}`, subject: { kind: 'input' } }),
    kind: 'other',
    effects: () => 'world',
    // A scheduled prompt runs later as if asked: in auto mode only the user approves one.
    onlyTheUserApproves: true,
    isConcurrencySafe: () => false,
    async call(input) {
      try {
        const task = scheduler.create({
          cron: input.cron,
          prompt: input.prompt,
          ...(input.recurring === undefined ? {} : { recurring: input.recurring }),
          ...(input.durable === undefined ? {} : { durable: input.durable }),
          ...(input.auto_run === undefined ? {} : { autoRun: input.auto_run }),
        });
        const kind = [task.recurring ? 'recurring' : 'one-shot', task.durable ? 'durable' : 'session-only'];
        if (task.autoRun) kind.push('auto-run');
        const next = task.nextRunAt === undefined ? 'no future run' : `next run ${formatLocalTime(task.nextRunAt)} (local time)`;
        const status = scheduler.status();
        // Durable tasks fire in whichever cairn holds the workspace lock; say so rather than surprise.
        const where = task.durable && !status.isLeader ? ` Note: ${status.line}.` : '';
        return {
          content: `Scheduled task ${task.id} "${task.cron}" (${kind.join(', ')}): ${next}.${where}`,
          display: { kind: 'cron_create', taskId: task.id, cron: task.cron, nextRunAt: task.nextRunAt, recurring: task.recurring, durable: task.durable },
        };
      } catch (err) {
        return errorResult(errorMessage(err));
      }
    },
  });
}
