import * as z from 'zod';

/** A page's title is one line of at most this many characters, in the result and on the card. */
export const MAX_TITLE_CHARS = 200;

/** What a web_fetch card shows: where it ended up, each redirect, what came back and how much. */
export const WebFetchDisplaySchema = z.object({
  kind: z.literal('web_fetch'),
  url: z.string(),
  finalUrl: z.string().optional(),
  hops: z.array(z.string()),
  status: z.number().optional(),
  contentType: z.string().optional(),
  bytes: z.number().optional(),
  chars: z.number().optional(),
  title: z.string().optional(),
  truncated: z.boolean().optional(),
});
export type WebFetchDisplay = z.infer<typeof WebFetchDisplaySchema>;
