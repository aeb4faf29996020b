import { AbortError, isAbortError, sleep } from '../util/abort.js';
import { ProviderError } from './provider.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from './provider.js';
import type { Failure, FailureContext } from './failure.js';
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS, idleFailure, StreamIdleError, withIdleTimeout } from './stream-idle.js';

// Retries live here, not in the SDKs (their clients get maxRetries: 0), so every retry is a
// visible `notice` and a retried attempt always restarts the call from scratch.

export type SleepFn = (ms: number, signal: AbortSignal) => Promise<void>;

export type { Failure, FailureContext } from './failure.js';

export interface RetryOptions {
  provider: string;
  signal: AbortSignal;
  /** Retries after the first try; the default 2 makes 3 tries in all. */
  maxRetries?: number;
  sleep?: SleepFn;
  /** 0..1; injectable so jitter is deterministic in tests. */
  random?: () => number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_BASE_DELAY_MS = 1000;
const DEFAULT_MAX_DELAY_MS = 30_000;
/** A Retry-After longer than this is not worth sitting through in an interactive tool. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Thrown by a provider when the stream ended before the model said it was done. */
export class IncompleteStreamError extends Error {
  constructor(message = 'the stream ended before the message was complete') {
    super(message);
    this.name = 'IncompleteStreamError';
  }
}

export function abortError(): Error {
  return new AbortError('The model call was aborted');
}

export const defaultSleep: SleepFn = (ms, signal) => sleep(ms, signal);

export function backoffMs(retry: number, random: () => number, base = DEFAULT_BASE_DELAY_MS, cap = DEFAULT_MAX_DELAY_MS): number {
  const exp = Math.min(cap, base * 2 ** (retry - 1));
  // Full +-25% jitter keeps many clients that failed together from retrying together.
  return Math.round(exp * (0.75 + 0.5 * random()));
}

/** Retry-After (seconds or HTTP date) or retry-after-ms, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(headers: Headers | undefined | null, now = Date.now()): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/**
 * Runs `attempt` until one completes. Deltas of a failed attempt have already been yielded;
 * the `notice` with code 'retry' tells consumers to drop them. Only a complete attempt
 * yields `message`, so a failed call never leaves a half-written assistant message.
 */
export async function* withRetries(
  attempt: () => AsyncIterable<ModelStreamEvent>,
  toFailure: (err: unknown) => Failure,
  opts: RetryOptions,
): AsyncGenerator<ModelStreamEvent> {
  const maxRetries = Math.max(0, opts.maxRetries ?? DEFAULT_MAX_RETRIES);
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const tries = maxRetries + 1;
  for (let n = 1; ; n++) {
    if (opts.signal.aborted) throw abortError();
    try {
      yield* attempt();
      return;
    } catch (err) {
      if (opts.signal.aborted || isAbortError(err)) throw abortError();
      if (err instanceof ProviderError) throw err;
      const failure = toFailure(err);
      if (!failure.retryable) throw new ProviderError(failure.message, failure.status, false);
      if (n >= tries) {
        const after = tries > 1 ? ` (gave up after ${tries} attempts)` : '';
        throw new ProviderError(`${failure.message}${after}`, failure.status, true);
      }
      const delay =
        failure.retryAfterMs !== undefined
          ? Math.min(failure.retryAfterMs, MAX_RETRY_AFTER_MS)
          : backoffMs(n, random, opts.baseDelayMs, opts.maxDelayMs);
      yield {
        type: 'notice',
        level: 'warning',
        code: 'retry',
        message: `${opts.provider}: ${failure.label}, retrying in ${formatDelay(delay)} (attempt ${n + 1} of ${tries})`,
      };
      await sleep(delay, opts.signal);
    }
  }
}


const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The connection-level cause (code and message) anywhere in an error's cause chain, if any. */
export function connectionCause(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
    // undici reports a socket closed mid-body as TypeError('terminated').
    if (current.message === 'terminated') return 'connection closed mid-response';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Judges an HTTP status (or a stream `error` event mapped to one) the same way for every provider. */
export function httpFailure(status: number, detail: string, ctx: FailureContext, retryAfterMs?: number): Failure {
  const p = ctx.provider;
  const suffix = detail ? `: ${detail}` : '';
  if (status === 401) {
    const fix = ctx.apiKeyEnv ? `check ${ctx.apiKeyEnv}` : `set apiKeyEnv for '${p}' in config.json`;
    return { retryable: false, status, label: 'unauthorized (401)', message: `${p}: invalid API key: ${fix} (401)${suffix}` };
  }
  if (status === 403) {
    return {
      retryable: false,
      status,
      label: 'forbidden (403)',
      message: `${p}: permission denied (403): the API key may not have access to model '${ctx.model}'${suffix}`,
    };
  }
  if (status === 404) {
    return {
      retryable: false,
      status,
      label: 'not found (404)',
      message: `${p}: unknown model '${ctx.model}' or wrong base URL (${ctx.baseUrl}) (404)${suffix}`,
    };
  }
  if (status === 429 || status === 408 || status === 409 || status >= 500) {
    const label = status === 529 ? 'overloaded (529)' : status === 429 ? 'rate limited (429)' : `server error (${status})`;
    const failure: Failure = { retryable: true, status, label, message: `${p}: ${label}${suffix}` };
    if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
    return failure;
  }
  if (status === 413) {
    return { retryable: false, status, label: 'request too large (413)', message: `${p}: request too large (413): the conversation no longer fits${suffix}` };
  }
  return { retryable: false, status, label: `bad request (${status})`, message: `${p}: request rejected (${status})${suffix}` };
}

export function connectionFailure(cause: string, ctx: FailureContext): Failure {
  return {
    retryable: true,
    label: `connection error (${cause})`,
    message: `${ctx.provider}: cannot reach ${ctx.baseUrl} (${cause})`,
  };
}

export function incompleteFailure(ctx: FailureContext, detail: string): Failure {
  return { retryable: true, label: 'stream ended early', message: `${ctx.provider}: ${detail}` };
}

export interface RetryingProviderOptions {
  name: string;
  model: string;
  baseUrl: string;
  apiKeyEnv?: string;
  maxRetries?: number;
  sleep?: SleepFn;
  random?: () => number;
  /** How long an attempt may wait for its next stream event (default DEFAULT_STREAM_IDLE_TIMEOUT_MS). */
  streamIdleTimeoutMs?: number;
}

/** A provider whose every call is one `attempt`, retried on the failures `classify` deems retryable. */
export function retryingProvider(
  opts: RetryingProviderOptions,
  attempt: (request: ModelRequest) => AsyncIterable<ModelStreamEvent>,
  classify: (err: unknown, ctx: FailureContext) => Failure,
): ModelProvider {
  return {
    name: opts.name,
    model: opts.model,
    stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      const req = request.model ? request : { ...request, model: opts.model };
      const ctx: FailureContext = { provider: opts.name, model: req.model, baseUrl: opts.baseUrl };
      if (opts.apiKeyEnv !== undefined) ctx.apiKeyEnv = opts.apiKeyEnv;
      const idleMs = opts.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
      return withRetries(() => withIdleTimeout(attempt, req, idleMs), (err) => (err instanceof StreamIdleError ? idleFailure(ctx, err) : classify(err, ctx)), {
        provider: opts.name,
        signal: request.signal,
        ...(opts.maxRetries !== undefined && { maxRetries: opts.maxRetries }),
        ...(opts.sleep && { sleep: opts.sleep }),
        ...(opts.random && { random: opts.random }),
      });
    },
  };
}
