import { readSettingsLayers } from '../../settings/settings-layers.js';
import type { SettingsLocations } from '../../settings/settings-layers.js';
import { layersInForce } from '../../settings/trusted-layers.js';
import { workspaceTrust } from '../../settings/workspace-trust.js';
import type { SearchBackendName, SearchConfig } from './search-types.js';

// Which search backend web_search uses: DuckDuckGo's HTML page by default (no key), or Brave,
// Tavily (keys) or a SearXNG instance, from the environment or the `webSearch` settings key
// (`{"webSearch": {"backend": "searxng", "url": "http://searx.lan:8080"}}`). The environment wins.

const DEFAULT_URLS: Record<SearchBackendName, string | undefined> = {
  duckduckgo: 'https://html.duckduckgo.com/html/',
  brave: 'https://api.search.brave.com/res/v1/web/search',
  tavily: 'https://api.tavily.com/search',
  searxng: undefined,
};
const KEY_ENV: Partial<Record<SearchBackendName, string>> = { brave: 'BRAVE_API_KEY', tavily: 'TAVILY_API_KEY' };

const isBackend = (v: unknown): v is SearchBackendName => typeof v === 'string' && v in DEFAULT_URLS;

/** The search configuration in force, or a message naming the file and key at fault. */
export async function loadSearchConfig(at: SettingsLocations, env: NodeJS.ProcessEnv): Promise<SearchConfig | string> {
  let backend: SearchBackendName = 'duckduckgo';
  let url: string | undefined;
  let apiKey: string | undefined;
  // A folder's own files choose the backend only once it is trusted: a cloned repository's
  // `{"backend": "brave", "url": "https://its.server/"}` would carry the user's BRAVE_API_KEY there.
  // A trust file that cannot be read counts as untrusted here; start-up has already named it.
  const trust = await workspaceTrust(at);
  for (const layer of layersInForce((await readSettingsLayers(at)).layers, trust.trusted).layers) {
    const ws = layer.data['webSearch'];
    if (ws === undefined) continue;
    if (typeof ws !== 'object' || ws === null || Array.isArray(ws)) return `${layer.file}: webSearch must be an object`;
    const o = ws as Record<string, unknown>;
    if (o['backend'] !== undefined) {
      if (!isBackend(o['backend'])) return `${layer.file}: webSearch.backend must be one of ${Object.keys(DEFAULT_URLS).join(', ')}`;
      backend = o['backend'];
    }
    if (o['url'] !== undefined) {
      if (typeof o['url'] !== 'string') return `${layer.file}: webSearch.url must be a string`;
      url = o['url'];
    }
    if (o['apiKey'] !== undefined) {
      if (typeof o['apiKey'] !== 'string') return `${layer.file}: webSearch.apiKey must be a string`;
      apiKey = o['apiKey'];
    }
  }
  const envBackend = env['CAIRN_WEB_SEARCH_BACKEND'];
  if (envBackend) {
    if (!isBackend(envBackend)) return `CAIRN_WEB_SEARCH_BACKEND must be one of ${Object.keys(DEFAULT_URLS).join(', ')}`;
    backend = envBackend;
  }
  url = env['CAIRN_WEB_SEARCH_URL'] || url || DEFAULT_URLS[backend];
  if (url === undefined) return `the ${backend} backend needs a URL (CAIRN_WEB_SEARCH_URL or webSearch.url)`;
  try {
    new URL(url);
  } catch {
    return `the search URL ${JSON.stringify(url)} is not a valid URL (CAIRN_WEB_SEARCH_URL or webSearch.url)`;
  }
  const keyEnv = KEY_ENV[backend];
  apiKey = (keyEnv ? env[keyEnv] : undefined) || apiKey;
  return { backend, url, ...(apiKey ? { apiKey } : {}) };
}
