export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

export type SearchOutcome =
  | { ok: true; hits: SearchHit[] }
  /** Why no results came: unreachable, blocked, a CAPTCHA, an answer cairn cannot read. Empty results are ok with no hits. */
  | { ok: false; reason: string };

export type SearchBackendName = 'duckduckgo' | 'brave' | 'tavily' | 'searxng';

export interface SearchConfig {
  backend: SearchBackendName;
  /** The endpoint: DuckDuckGo's HTML page (or a mirror), a SearXNG instance, or the Brave/Tavily API. */
  url: string;
  apiKey?: string;
}
