// The models an endpoint offers: Anthropic's GET /v1/models and OpenAI's GET /models (its base URL
// ends in /v1). Asked with a short timeout; a failure is a reason to show, never thrown.
import type { ModelPrice } from '../pricing.js';
import { errorMessage } from '../util/error-message.js';
import type { ProviderApi } from './presets.js';

export interface ModelListEndpoint {
  api: ProviderApi;
  baseUrl: string;
  apiKey?: string;
}

export interface ListedModel {
  id: string;
  contextWindow?: number;
  /** Dollars per million tokens, when the endpoint says (OpenRouter's `pricing`, per token). */
  price?: ModelPrice;
}

export type ModelListResult = { ok: true; models: ListedModel[] } | { ok: false; error: string };

const ANTHROPIC_VERSION = '2023-06-01';

// OpenAI's list holds every model of the account: embeddings, speech, images and moderation are
// no use for a conversation, and choosing one would only fail on the next turn.
const NOT_FOR_CHAT = /(^|[-/])(text-embedding|embedding|embed|tts|whisper|dall-e|gpt-image|moderation|davinci|babbage|transcribe|audio|realtime|search|sora)([-.:]|$)/i;

function listUrl(endpoint: ModelListEndpoint): string {
  const base = endpoint.baseUrl.replace(/\/+$/, '');
  return endpoint.api === 'anthropic' ? `${base}/v1/models?limit=100` : `${base}/models`;
}

function headersFor(endpoint: ModelListEndpoint): Record<string, string> {
  if (endpoint.apiKey === undefined) return {};
  return endpoint.api === 'anthropic' ? { 'x-api-key': endpoint.apiKey, 'anthropic-version': ANTHROPIC_VERSION } : { authorization: `Bearer ${endpoint.apiKey}` };
}

/** Context sizes some endpoints give with their models (OpenRouter's context_length, Anthropic's max_input_tokens). */
function contextOf(entry: Record<string, unknown>): number | undefined {
  for (const key of ['context_length', 'max_input_tokens', 'context_window']) {
    const v = entry[key];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}

/** OpenRouter's `pricing: {prompt, completion}`: dollars per token as decimal strings. */
function priceOf(entry: Record<string, unknown>): ModelPrice | undefined {
  const pricing = entry['pricing'];
  if (typeof pricing !== 'object' || pricing === null) return undefined;
  const perToken = (v: unknown): number | undefined => {
    const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
    return Number.isFinite(n) && n >= 0 ? Math.round(n * 1e6 * 1e6) / 1e6 : undefined;
  };
  const input = perToken((pricing as Record<string, unknown>)['prompt']);
  const output = perToken((pricing as Record<string, unknown>)['completion']);
  return input !== undefined && output !== undefined ? { input, output } : undefined;
}

export async function fetchModelList(endpoint: ModelListEndpoint, timeoutMs = 3000, signal?: AbortSignal): Promise<ModelListResult> {
  if (endpoint.api === 'offline') return { ok: true, models: [] };
  const url = listUrl(endpoint);
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    const res = await fetch(url, { headers: headersFor(endpoint), signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (!res.ok) {
      await res.body?.cancel();
      return { ok: false, error: `${url}: HTTP ${res.status} ${res.statusText}`.trim() };
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      return { ok: false, error: `${url}: the answer is not JSON` };
    }
    const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
    if (!Array.isArray(data)) return { ok: false, error: `${url}: the answer has no "data" list` };
    const models = data.flatMap((entry: unknown): ListedModel[] => {
      if (typeof entry !== 'object' || entry === null) return [];
      const e = entry as Record<string, unknown>;
      const id = e['id'];
      if (typeof id !== 'string' || id.trim() === '' || NOT_FOR_CHAT.test(id)) return [];
      const context = contextOf(e);
      const price = priceOf(e);
      return [{ id, ...(context !== undefined ? { contextWindow: context } : {}), ...(price ? { price } : {}) }];
    });
    return { ok: true, models };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const why = signal?.aborted === true ? 'cancelled' : timedOut ? `no answer within ${timeoutMs} ms` : errorMessage(error);
    return { ok: false, error: `${url}: ${why}` };
  }
}
