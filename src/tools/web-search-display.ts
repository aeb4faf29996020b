import * as z from 'zod';

/** What a web_search card shows: the query, the backend, and the results (expandable to titles and URLs). */
export const WebSearchDisplaySchema = z.object({
  kind: z.literal('web_search'),
  query: z.string(),
  backend: z.string(),
  results: z.array(z.object({ title: z.string(), url: z.string() })),
});
export type WebSearchDisplay = z.infer<typeof WebSearchDisplaySchema>;
