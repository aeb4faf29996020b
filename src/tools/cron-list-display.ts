import * as z from 'zod';

export const CronListDisplaySchema = z.object({
  kind: z.literal('cron_list'),
  count: z.number(),
});
export type CronListDisplay = z.infer<typeof CronListDisplaySchema>;
