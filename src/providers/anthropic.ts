import Anthropic, { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from './provider.js';
import { createNodeHttpFetch } from './node-http-fetch.js';
import { readServerSentEvents } from './sse-reader.js';
import { toAnthropicParams } from './anthropic-convert.js';
import type { ThinkingOptions } from './anthropic-convert.js';
import { createAnthropicAssembler } from './anthropic-stream.js';
import {
  IncompleteStreamError,
  abortError,
  connectionCause,
  connectionFailure,
  httpFailure,
  incompleteFailure,
  parseRetryAfter,
  retryingProvider,
} from './retry.js';
import type { Failure, FailureContext, SleepFn } from './retry.js';
import { apiErrorDetail, rootCauseMessage } from './sdk-errors.js';
import { errorMessage } from '../util/error-message.js';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseUrl?: string;
  model: string;
  /** Registry name shown in notices and errors (deepseek uses this API too). */
  name?: string;
  /** The env var the key came from, so a 401 says which one to fix. */
  apiKeyEnv?: string;
  thinking?: ThinkingOptions;
  /** Retries after the first try (default 2: 3 tries in all). */
  maxRetries?: number;
  sleep?: SleepFn;
  /** How long to wait for the next stream event before the attempt is dropped (retry.ts). */
  streamIdleTimeoutMs?: number;
  random?: () => number;
}

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

// Stream `error` events carry no HTTP status; map their type to the status it stands for.
const STREAM_ERROR_STATUS: Record<string, number> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
};

export function createAnthropicProvider(opts: AnthropicProviderOptions): ModelProvider {
  const name = opts.name ?? 'anthropic';
  const baseUrl = opts.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
  // Our own retry loop makes each retry visible; the SDK's would hide them.
  const transport = createNodeHttpFetch();
  const client = new Anthropic({ apiKey: opts.apiKey, baseURL: baseUrl, maxRetries: 0, fetch: transport.fetch });
  // Turned off for good once the endpoint rejects it, so later turns don't pay the failed call.
  let thinkingOn = opts.thinking?.enabled === true;

  async function* once(request: ModelRequest, thinking: ThinkingOptions | undefined): AsyncGenerator<ModelStreamEvent> {
    const params = toAnthropicParams(request, thinking);
    const assembler = createAnthropicAssembler();
    let finished: ReturnType<typeof assembler.finish>;
    try {
      // The SDK sends the request (auth, headers, an HTTP error as APIError); the events are read
      // here from the socket's stream (node-http-fetch.ts): the assembler builds the message.
      const response = await client.messages.create(params, { signal: request.signal }).asResponse();
      for await (const sse of readServerSentEvents(transport.answerStream(response, name, baseUrl), request.signal)) {
        // Pings too: they keep the stream's idle timer from running out.
        request.onActivity?.();
        // Chunks already buffered when the signal fires must not leak out as more output.
        if (request.signal.aborted) throw abortError();
        if (sse.event === 'ping') continue;
        if (sse.event === 'error') throw streamError(sse.data, response.headers);
        for (const out of assembler.push(JSON.parse(sse.data) as Anthropic.RawMessageStreamEvent)) yield out;
      }
      if (request.signal.aborted) throw abortError();
      finished = assembler.finish();
    } catch (error) {
      // A cut stream (Esc, a dropped connection) still used tokens: count what arrived.
      const partial = assembler.partialUsage();
      if (partial) yield { type: 'usage', usage: partial };
      throw error;
    }
    const { message, usage, stopReason } = finished;
    yield { type: 'usage', usage };
    yield { type: 'message', message, stopReason };
  }

  async function* attempt(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    if (!thinkingOn) {
      yield* once(request, undefined);
      return;
    }
    try {
      yield* once(request, opts.thinking);
    } catch (err) {
      if (request.signal.aborted || !isThinkingRejection(err)) throw err;
      thinkingOn = false;
      yield {
        type: 'notice',
        level: 'warning',
        code: 'thinking_unsupported',
        message: `${name}: the endpoint rejected extended thinking (${apiErrorDetail(err)}); continuing without it`,
      };
      yield* once(request, undefined);
    }
  }

  return { ...retryingProvider({ ...opts, name, baseUrl }, attempt, anthropicFailure), api: 'anthropic' };
}

/** A stream `error` event, as the SDK reports one: an APIError with no status, its body the event's. */
function streamError(data: string, headers: Headers): APIError {
  let body: unknown = data;
  try {
    body = JSON.parse(data);
  } catch {
    // Not JSON: the text itself is the detail.
  }
  return new APIError(undefined, body as object | undefined, undefined, headers);
}

function isThinkingRejection(err: unknown): boolean {
  return err instanceof APIError && err.status === 400 && /thinking/i.test(`${err.message} ${apiErrorDetail(err)}`);
}

export function anthropicFailure(err: unknown, ctx: FailureContext): Failure {
  if (err instanceof IncompleteStreamError) return incompleteFailure(ctx, err.message);
  if (err instanceof APIConnectionError) return connectionFailure(connectionCause(err) ?? rootCauseMessage(err), ctx);
  if (err instanceof APIError) {
    const detail = apiErrorDetail(err);
    if (typeof err.status === 'number') return httpFailure(err.status, detail, ctx, parseRetryAfter(err.headers as Headers | undefined));
    const type = streamErrorType(err.error);
    const status = type !== undefined ? STREAM_ERROR_STATUS[type] : undefined;
    if (status !== undefined) {
      const failure = httpFailure(status, detail, ctx);
      return { ...failure, label: `${failure.label.replace(/ \(\d+\)$/, '')} (${type} mid-stream)` };
    }
    return { retryable: true, label: `stream error (${type ?? 'unknown'})`, message: `${ctx.provider}: stream error: ${detail}` };
  }
  const cause = connectionCause(err);
  if (cause !== undefined) return connectionFailure(cause, ctx);
  const message = errorMessage(err);
  return { retryable: false, label: 'error', message: `${ctx.provider}: ${message}` };
}

function streamErrorType(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const inner = (body as { error?: unknown }).error;
  if (inner === null || typeof inner !== 'object') return undefined;
  const type = (inner as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}
