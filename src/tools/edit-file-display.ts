import * as z from 'zod';

/** The whole diff: the model's copy of the result is shortened, the card and the full view are not. */
export const EditFileDisplaySchema = z.object({
  kind: z.literal('edit_file'),
  path: z.string(),
  replacements: z.number(),
  diff: z.string(),
});
export type EditFileDisplay = z.infer<typeof EditFileDisplaySchema>;
