import * as z from 'zod';

/** `denied`: files a Read deny rule left out; `capped`: there were more results than shown. */
export const GrepDisplaySchema = z.object({
  kind: z.literal('grep'),
  matches: z.number(),
  files: z.number(),
  capped: z.boolean().optional(),
  denied: z.number(),
});
export type GrepDisplay = z.infer<typeof GrepDisplaySchema>;
