import type { Lookup } from '../address-guard.js';
import { bareHost } from '../address-guard.js';
import { decodeBody } from '../charset.js';
import { fetchPage, FetchError } from '../fetch-page.js';
import type { FetchedPage } from '../fetch-page.js';
import { errorMessage } from '../../util/error-message.js';
import type { SearchConfig, SearchHit, SearchOutcome } from './search-types.js';

export interface SearchRequest {
  query: string;
  maxResults: number;
  signal: AbortSignal;
  lookup?: Lookup;
  timeoutMs?: number;
}

const SEARCH_TIMEOUT_MS = 20_000;

/** The endpoint the user configured may be on their own network (a SearXNG box, a mirror, a test server): its host is named. */
async function get(config: SearchConfig, url: URL, req: SearchRequest, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}): Promise<FetchedPage> {
  const configured = bareHost(new URL(config.url));
  return fetchPage(url, {
    signal: req.signal,
    allowPrivate: (host) => host === configured,
    timeoutMs: req.timeoutMs ?? SEARCH_TIMEOUT_MS,
    maxBytes: 4 * 1024 * 1024,
    ...(req.lookup ? { lookup: req.lookup } : {}),
    ...init,
  });
}

function json(page: FetchedPage): unknown {
  return JSON.parse(decodeBody(page.body, page.headers['content-type'], false).text) as unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function hitsFrom(list: unknown, pick: (item: Record<string, unknown>) => SearchHit): SearchHit[] {
  if (!Array.isArray(list)) return [];
  return list.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null).map(pick).filter((h) => h.url !== '');
}

async function duckduckgo(config: SearchConfig, req: SearchRequest): Promise<SearchOutcome> {
  const page = await get(config, new URL(config.url), req, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ q: req.query, b: '', kl: '' }).toString(),
  });
  if (page.status >= 400) return { ok: false, reason: `search backend blocked: ${page.url.href} answered HTTP ${page.status}` };
  // The HTML parser loads with the first search, not with cairn.
  const { parseDuckDuckGoPage } = await import('./duckduckgo.js');
  const parsed = parseDuckDuckGoPage(decodeBody(page.body, page.headers['content-type'], true).text);
  switch (parsed.kind) {
    case 'results': return { ok: true, hits: parsed.hits };
    case 'empty': return { ok: true, hits: [] };
    case 'captcha': return { ok: false, reason: `DuckDuckGo answered with a CAPTCHA ("bots use DuckDuckGo too", HTTP ${page.status}): it is rate-limiting this address. Wait a while, or set another backend (webSearch.backend: brave, tavily or searxng)` };
    case 'unreadable': return { ok: false, reason: `${page.url.href} answered HTTP ${page.status} with a page that has no search results cairn can read` };
  }
}

async function searxng(config: SearchConfig, req: SearchRequest): Promise<SearchOutcome> {
  const url = new URL('search', config.url.endsWith('/') ? config.url : `${config.url}/`);
  url.searchParams.set('q', req.query);
  url.searchParams.set('format', 'json');
  const page = await get(config, url, req);
  if (page.status >= 400) return { ok: false, reason: `SearXNG at ${config.url} answered HTTP ${page.status}${page.status === 403 ? ' (is the json format enabled in its settings?)' : ''}` };
  const body = json(page) as { results?: unknown };
  return { ok: true, hits: hitsFrom(body.results, (r) => ({ title: str(r['title']), url: str(r['url']), snippet: str(r['content']) })) };
}

async function brave(config: SearchConfig, req: SearchRequest): Promise<SearchOutcome> {
  if (!config.apiKey) return { ok: false, reason: 'the Brave backend needs an API key (BRAVE_API_KEY or webSearch.apiKey)' };
  const url = new URL(config.url);
  url.searchParams.set('q', req.query);
  url.searchParams.set('count', String(req.maxResults));
  const page = await get(config, url, req, { headers: { accept: 'application/json', 'x-subscription-token': config.apiKey } });
  if (page.status >= 400) return { ok: false, reason: `Brave Search answered HTTP ${page.status}${page.status === 401 || page.status === 403 ? ' (check the API key)' : ''}` };
  const body = json(page) as { web?: { results?: unknown } };
  return { ok: true, hits: hitsFrom(body.web?.results, (r) => ({ title: str(r['title']), url: str(r['url']), snippet: str(r['description']).replace(/<[^>]*>/g, '') })) };
}

async function tavily(config: SearchConfig, req: SearchRequest): Promise<SearchOutcome> {
  if (!config.apiKey) return { ok: false, reason: 'the Tavily backend needs an API key (TAVILY_API_KEY or webSearch.apiKey)' };
  const page = await get(config, new URL(config.url), req, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
    body: JSON.stringify({ query: req.query, max_results: req.maxResults }),
  });
  if (page.status >= 400) return { ok: false, reason: `Tavily answered HTTP ${page.status}${page.status === 401 ? ' (check the API key)' : ''}` };
  const body = json(page) as { results?: unknown };
  return { ok: true, hits: hitsFrom(body.results, (r) => ({ title: str(r['title']), url: str(r['url']), snippet: str(r['content']) })) };
}

const BACKENDS = { duckduckgo, searxng, brave, tavily } as const;

/** Runs one search; never throws: an unreachable or blocked backend is an outcome with the reason. */
export async function runSearch(config: SearchConfig, req: SearchRequest): Promise<SearchOutcome> {
  try {
    const outcome = await BACKENDS[config.backend](config, req);
    return outcome.ok ? { ok: true, hits: outcome.hits.slice(0, req.maxResults) } : outcome;
  } catch (err) {
    if (err instanceof FetchError) {
      const blocked = /^HTTP 4\d\d/.test(err.message);
      return { ok: false, reason: `search backend ${blocked ? 'blocked' : 'unreachable'} (${config.backend}, ${config.url}): ${err.message}` };
    }
    return { ok: false, reason: `search backend ${config.backend} gave an answer cairn cannot read: ${errorMessage(err)}` };
  }
}
