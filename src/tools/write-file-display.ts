import * as z from 'zod';

/** `diff` is empty when there was nothing to compare against. */
export const WriteFileDisplaySchema = z.object({
  kind: z.literal('write_file'),
  path: z.string(),
  created: z.boolean(),
  lines: z.number(),
  diff: z.string(),
});
export type WriteFileDisplay = z.infer<typeof WriteFileDisplaySchema>;
