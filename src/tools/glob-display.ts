import * as z from 'zod';

/** `denied`: files a Read deny rule left out. */
export const GlobDisplaySchema = z.object({
  kind: z.literal('glob'),
  count: z.number(),
  denied: z.number(),
});
export type GlobDisplay = z.infer<typeof GlobDisplaySchema>;
