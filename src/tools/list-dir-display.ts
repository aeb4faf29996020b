import * as z from 'zod';

/** `denied`: entries a Read deny rule left out. */
export const ListDirDisplaySchema = z.object({
  kind: z.literal('list_dir'),
  path: z.string(),
  count: z.number(),
  denied: z.number(),
});
export type ListDirDisplay = z.infer<typeof ListDirDisplaySchema>;
