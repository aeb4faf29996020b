import * as z from 'zod';

export const BashOutputDisplaySchema = z.object({
  kind: z.literal('bash_output'),
  shellId: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'killed']),
  exitCode: z.number().optional(),
  truncated: z.boolean(),
});
export type BashOutputDisplay = z.infer<typeof BashOutputDisplaySchema>;
