import { randomUUID } from 'node:crypto';
import OpenAI, { APIConnectionError, APIError } from 'openai';
import { estimateMessagesTokens, estimateTokens } from '../context/tokens.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from './provider.js';
import { createNodeHttpFetch } from './node-http-fetch.js';
import { readServerSentEvents } from './sse-reader.js';
import type { ReasoningEffort } from './resolve.js';
import { createOpenAIAssembler, toOpenAIMessages, toOpenAITools } from './openai-convert.js';
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

export interface OpenAIProviderOptions {
  /** Local servers (ollama, vllm) need none; the SDK still wants a string. */
  apiKey?: string;
  baseUrl?: string;
  model: string;
  /** Registry name shown in notices and errors (openrouter, ollama, ... use this API). */
  name?: string;
  apiKeyEnv?: string;
  /** Retries after the first try (default 2: 3 tries in all). */
  maxRetries?: number;
  sleep?: SleepFn;
  /** How long to wait for the next stream event before the attempt is dropped (retry.ts). */
  streamIdleTimeoutMs?: number;
  random?: () => number;
  /**
   * api.openai.com wants max_completion_tokens (reasoning models reject max_tokens);
   * most compatible servers only know max_tokens. Chosen from the base URL when absent.
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** --effort on a reasoning model. */
  reasoningEffort?: ReasoningEffort;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function createOpenAIProvider(opts: OpenAIProviderOptions): ModelProvider {
  const name = opts.name ?? 'openai';
  const baseUrl = opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  const transport = createNodeHttpFetch();
  const client = new OpenAI({ apiKey: opts.apiKey || 'none', baseURL: baseUrl, maxRetries: 0, fetch: transport.fetch });
  const maxTokensField = opts.maxTokensField ?? (isOfficialOpenAI(baseUrl) ? 'max_completion_tokens' : 'max_tokens');

  async function* attempt(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      model: request.model,
      messages: toOpenAIMessages(request.system, request.messages),
      stream: true,
      stream_options: { include_usage: true },
      [maxTokensField]: request.maxTokens,
    };
    if (opts.reasoningEffort) body.reasoning_effort = opts.reasoningEffort;
    if (request.tools.length > 0) body.tools = toOpenAITools(request.tools);
    // The SDK sends the request (auth, headers, an HTTP error as APIError); the events are read
    // here from the socket's stream (node-http-fetch.ts), as the SDK's own stream would read them.
    const response = await client.chat.completions.create(body, { signal: request.signal }).asResponse();
    const events = transport.answerStream(response, name, baseUrl);
    const assembler = createOpenAIAssembler(() => `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`);
    let finished: ReturnType<typeof assembler.finish>;
    try {
      let done = false;
      for await (const sse of readServerSentEvents(events, request.signal)) {
        request.onActivity?.();
        // Chunks already buffered when the signal fires must not leak out as more output.
        if (request.signal.aborted) throw abortError();
        // After [DONE] the rest is read but ignored, so the connection can be used again.
        if (done || sse.event.startsWith('thread.')) continue;
        if (sse.data.startsWith('[DONE]')) {
          done = true;
          continue;
        }
        const chunk = JSON.parse(sse.data) as OpenAI.Chat.Completions.ChatCompletionChunk & { error?: unknown };
        if (chunk.error) throw new APIError(undefined, chunk.error, undefined, response.headers);
        for (const out of assembler.push(chunk)) yield out;
      }
      if (request.signal.aborted) throw abortError();
      finished = assembler.finish();
    } catch (error) {
      // A cut stream (Esc, a dropped connection) still used tokens: count what arrived.
      const partial = assembler.partialUsage(() => estimateTokens(request.system) + estimateMessagesTokens(request.messages, 'openai'));
      if (partial) yield { type: 'usage', usage: partial };
      throw error;
    }
    const { message, usage, stopReason } = finished;
    if (usage) yield { type: 'usage', usage };
    yield { type: 'message', message, stopReason };
  }

  return { ...retryingProvider({ ...opts, name, baseUrl }, attempt, openAIFailure), api: 'openai' };
}

function isOfficialOpenAI(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

export function openAIFailure(err: unknown, ctx: FailureContext): Failure {
  if (err instanceof IncompleteStreamError) return incompleteFailure(ctx, err.message);
  if (err instanceof APIConnectionError) return connectionFailure(connectionCause(err) ?? rootCauseMessage(err), ctx);
  if (err instanceof APIError) {
    const detail = apiErrorDetail(err);
    if (typeof err.status === 'number') return httpFailure(err.status, detail, ctx, parseRetryAfter(err.headers as Headers | undefined));
    // An error object inside the stream: the server gave up mid-answer, usually transient.
    return { retryable: true, label: 'error mid-stream', message: `${ctx.provider}: stream error: ${detail}` };
  }
  const cause = connectionCause(err);
  if (cause !== undefined) return connectionFailure(cause, ctx);
  const message = errorMessage(err);
  return { retryable: false, label: 'error', message: `${ctx.provider}: ${message}` };
}
