import * as z from 'zod';

/** `nextRunAt` (epoch ms) is absent when the schedule has no future run. */
export const CronCreateDisplaySchema = z.object({
  kind: z.literal('cron_create'),
  taskId: z.string(),
  cron: z.string(),
  nextRunAt: z.number().optional(),
  recurring: z.boolean(),
  durable: z.boolean(),
});
export type CronCreateDisplay = z.infer<typeof CronCreateDisplaySchema>;
