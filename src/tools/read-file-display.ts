import * as z from 'zod';

/** The range read; an empty file reads 0-0 of 0. */
export const ReadFileDisplaySchema = z.object({
  kind: z.literal('read_file'),
  path: z.string(),
  startLine: z.number(),
  endLine: z.number(),
  totalLines: z.number(),
  /** An image or PDF read whole and sent to the model: its chip (`[image shot.png · 1280x800]`). */
  attachment: z.string().optional(),
});
export type ReadFileDisplay = z.infer<typeof ReadFileDisplaySchema>;
