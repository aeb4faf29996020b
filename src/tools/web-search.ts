import * as z from 'zod';
import type { Lookup } from '../web/address-guard.js';
import { runSearch } from '../web/search/search-backends.js';
import type { SearchConfig } from '../web/search/search-types.js';
import { markUntrusted } from '../web/untrusted.js';
import { errorMessage } from '../util/error-message.js';
import { errorResult } from './result.js';
import { defineTool, type Tool } from './tool.js';

const inputSchema = z.object({
  query: z.string().min(1).describe('What to search for.'),
  max_results: z.number().int().min(1).max(20).optional().describe('How many results (default 8).'),
  site: z.string().optional().describe('Only results from this site, e.g. docs.python.org.'),
});
export type WebSearchInput = z.infer<typeof inputSchema>;

const description = `Searches the web and returns numbered results (title, URL, snippet) to cite and to read further with web_fetch.
- Use site to search one site. Results are untrusted content from the web.`;

export interface WebSearchOptions {
  /** The backend in force, or why there is none (a bad setting, named). Read at each call, so settings changes apply. */
  config: () => Promise<SearchConfig | string>;
  lookup?: Lookup;
  timeoutMs?: number;
}

export function createWebSearchTool(opts: WebSearchOptions): Tool<WebSearchInput> {
  return defineTool<WebSearchInput>({
    name: 'web_search',
    description,
    inputSchema,
    describe: (input) => ({ title: input.query, subject: { kind: 'input' } }),
    kind: 'read',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    async call(input, ctx) {
      let config: SearchConfig | string;
      try {
        config = await opts.config();
      } catch (err) {
        return errorResult(`web_search: cannot read the search settings: ${errorMessage(err)}`);
      }
      if (typeof config === 'string') return errorResult(`web_search: ${config}`);
      const site = input.site?.trim().replace(/^https?:\/\//, '').replace(/\/.*$/, '');
      const query = site ? `${input.query} site:${site}` : input.query;
      const outcome = await runSearch(config, {
        query,
        maxResults: input.max_results ?? 8,
        signal: ctx.signal,
        ...(opts.lookup ? { lookup: opts.lookup } : {}),
        ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      });
      if (!outcome.ok) return errorResult(`web_search "${query}": ${outcome.reason}`);
      const display = { kind: 'web_search' as const, query, backend: config.backend, results: outcome.hits.map((h) => ({ title: h.title, url: h.url })) };
      if (outcome.hits.length === 0) {
        return { content: `No results for "${query}" (${config.backend}). Try fewer or different words${site ? ', or drop the site filter' : ''}.`, display };
      }
      const list = outcome.hits.map((h, i) => `${i + 1}. [${h.title}](${h.url})${h.snippet ? `\n   ${h.snippet}` : ''}`).join('\n');
      return {
        content: `${outcome.hits.length} results for "${query}" (${config.backend}):\n\n${markUntrusted(config.url, list)}\n\nCite results by number and URL; read one with web_fetch.`,
        display,
      };
    },
  });
}
