// The /model picker's list: the configured providers' models (each preset's default, config.json's
// model and providers, and what each endpoint's model list offers), with context size and price.
import { priceFor, type ModelPrice, type PriceTable } from '../pricing.js';
import { errorMessage } from '../util/error-message.js';
import { loadProviderConfig, type ProviderConfig } from './config.js';
import { takesEffort } from './effort.js';
import { fetchModelList } from './model-list.js';
import { PROVIDER_PRESETS, type ProviderApi } from './presets.js';
import { resolveProvider, type ResolvedProvider } from './resolve.js';

export interface ModelRow {
  provider: string;
  api: ProviderApi;
  model: string;
  /** Tokens; absent when nothing says (the provider's config could not be read). */
  contextWindow?: number;
  /** Dollars per million tokens, from the price table (config.json's `pricing` over the built-in one), else from the endpoint. */
  price?: ModelPrice;
  /** Where the row came from: "current", "preset", "config.json", "endpoint". */
  source: string;
  /** Whether a thinking effort can be chosen for it (effort.ts). */
  effort: boolean;
}

export interface ModelCatalog {
  /** The current provider's rows first (the current model at the top), then the others in config order. */
  rows: ModelRow[];
  /** Endpoints whose list could not be had, a provider that cannot be used, a config that cannot be read; the rest of the list is still there. */
  problems: string[];
  /** $CAIRN_HOME/config.json, where providers and the default model are set. */
  configFile: string;
}

export interface ModelCatalogOptions {
  cairnHome: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The session's provider and model: always listed, first. */
  current: { provider: string; model: string };
  prices: PriceTable;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The providers the user can switch to: the current one, and every other whose key is set (or that config.json defines). */
function configuredProviders(config: ProviderConfig, opts: ModelCatalogOptions): { resolved: ResolvedProvider[]; problems: string[] } {
  const resolved: ResolvedProvider[] = [];
  const problems: string[] = [];
  for (const [name, preset] of Object.entries(config.providers)) {
    const isCurrent = name === opts.current.provider;
    const keySet = preset.apiKeyEnv !== undefined && (opts.env[preset.apiKeyEnv] ?? '').trim() !== '';
    if (!isCurrent && (preset.api === 'offline' || !(keySet || config.fromFile.includes(name)))) continue;
    try {
      resolved.push(resolveProvider({ flags: { provider: name, ...(isCurrent ? { model: opts.current.model } : {}) }, env: opts.env, cairnHome: opts.cairnHome }));
    } catch (error) {
      problems.push(`${name}: ${errorMessage(error)}`);
    }
  }
  resolved.sort((a, b) => Number(b.name === opts.current.provider) - Number(a.name === opts.current.provider));
  return { resolved, problems };
}

/** The list; never throws (a problem is listed in `problems`, and the current model is always there). */
export async function modelCatalog(opts: ModelCatalogOptions): Promise<ModelCatalog> {
  const { current } = opts;
  let config: ProviderConfig;
  try {
    config = loadProviderConfig(opts.cairnHome);
  } catch (error) {
    // config.json broke after start-up: the session's model is still there to keep.
    const api = PROVIDER_PRESETS[current.provider]?.api ?? 'openai';
    return { rows: [{ provider: current.provider, api, model: current.model, source: 'current', effort: takesEffort(api, current.model), ...priced(opts.prices, current.model) }], problems: [errorMessage(error)], configFile: `${opts.cairnHome}/config.json` };
  }
  const { resolved, problems } = configuredProviders(config, opts);
  const lists = await Promise.all(
    resolved.map((r) => fetchModelList({ api: r.api, baseUrl: r.baseUrl, ...(r.apiKey !== undefined ? { apiKey: r.apiKey } : {}) }, opts.timeoutMs, opts.signal)),
  );
  const rows: ModelRow[] = [];
  const seen = new Set<string>();
  const add = (r: ResolvedProvider, model: string, source: string, contextWindow = r.contextWindow, endpointPrice?: ModelPrice): void => {
    const key = `${r.name}\0${model}`;
    if (seen.has(key)) return;
    seen.add(key);
    rows.push({ provider: r.name, api: r.api, model, contextWindow, ...priced(opts.prices, model, endpointPrice), source, effort: takesEffort(r.api, model) });
  };
  resolved.forEach((r, i) => {
    const preset = config.providers[r.name];
    if (r.name === current.provider) add(r, current.model, 'current');
    if (preset) add(r, preset.defaultModel, config.fromFile.includes(r.name) ? 'config.json' : 'preset');
    // config.json's model belongs to its defaultProvider (to the one in use when none is named); the offline model has no others.
    if (config.model !== undefined && r.api !== 'offline' && (config.defaultProvider ?? current.provider) === r.name) add(r, config.model, 'config.json');
    const list = lists[i];
    if (!list) return;
    if (!list.ok) problems.push(`${r.name}: ${list.error}`);
    else for (const m of list.models) add(r, m.id, 'endpoint', m.contextWindow ?? r.contextWindow, m.price);
  });
  return { rows, problems, configFile: config.file };
}

function priced(prices: PriceTable, model: string, fromEndpoint?: ModelPrice): { price?: ModelPrice } {
  const price = priceFor(prices, model) ?? fromEndpoint;
  return price ? { price } : {};
}
