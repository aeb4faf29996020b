// A loopback Anthropic or OpenAI server for the TUI bench: every streaming request is answered
// with the text the offline model would stream for the same prompt (`stream N at R/s` ->
// generateMarkdown(N) in 4-character deltas, R deltas a second, paced by timers on this side),
// as protocol-exact SSE, so a bench run through a real provider compares with the offline one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sse } from '../../helpers/anthropic-server.js';
import { dataLine } from '../../helpers/openai-server.js';
import { chunkText, generateMarkdown } from '../../../src/providers/offline-markdown.js';
import { planFor } from '../../../src/providers/offline-script.js';

export type BenchProvider = 'offline' | 'anthropic' | 'openai';

/** The offline model's delta size (src/providers/offline.ts). */
const DELTA_CHARS = 4;
/** What any request that is not `stream N [at R/s]` gets. */
const SHORT_ANSWER = 'OK.';

export interface ServedRequest {
  path: string;
  streamed: boolean;
  /** The prompt's `stream N` word count, if it was one. */
  words?: number;
  rate?: number;
  deltas: number;
  /** Largest delay of a delta behind its due time (rate runs only), in ms. */
  maxLagMs: number;
  /** From the first to the last delta written, in ms. */
  durationMs: number;
  /** The client went away before the reply was complete. */
  disconnected: boolean;
}

export interface ProviderServer {
  /** Env that makes cairn use this server (base URL and a dummy key). */
  env: Record<string, string>;
  /** Flags that select the provider and model. */
  args: string[];
  url: string;
  requests: ServedRequest[];
  close(): Promise<void>;
}

interface Reply {
  text: string;
  rate?: number;
  words?: number;
}

export async function startProviderServer(provider: 'anthropic' | 'openai'): Promise<ProviderServer> {
  const requests: ServedRequest[] = [];
  const model = provider === 'anthropic' ? 'claude-sonnet-5-5' : 'gpt-5.4';
  const messagesPath = provider === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => (raw += piece));
    req.on('end', () => {
      const url = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || url !== messagesPath) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `bench server: no ${req.method} ${url}` } }));
        requests.push({ path: url, streamed: false, deltas: 0, maxLagMs: 0, durationMs: 0, disconnected: false });
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bench server: body is not JSON' } }));
        return;
      }
      const reply = replyFor(lastUserTexts(body));
      const inputTokens = Math.ceil(raw.length / 4);
      const record: ServedRequest = { path: url, streamed: body['stream'] === true, deltas: 0, maxLagMs: 0, durationMs: 0, disconnected: false };
      if (reply.words !== undefined) record.words = reply.words;
      if (reply.rate !== undefined) record.rate = reply.rate;
      requests.push(record);
      if (body['stream'] !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(provider === 'anthropic' ? anthropicMessage(model, reply.text, inputTokens) : openaiCompletion(model, reply.text, inputTokens)));
        return;
      }
      const events = provider === 'anthropic' ? anthropicEvents(model, reply.text, inputTokens) : openaiEvents(model, reply.text, inputTokens);
      streamPaced(res, events, reply.rate, record);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> =
    provider === 'anthropic'
      ? { ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: base }
      : { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: `${base}/v1` };
  return {
    env,
    args: ['--provider', provider, '--model', model],
    url: provider === 'anthropic' ? base : `${base}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The loopback server for a real provider; none for the offline model. */
export async function startServerFor(provider: BenchProvider = 'offline'): Promise<ProviderServer | undefined> {
  return provider === 'offline' ? undefined : startProviderServer(provider);
}

/** The text pieces of the last user message: Anthropic content blocks or OpenAI's string content. */
function lastUserTexts(body: Record<string, unknown>): string[] {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Array<Record<string, unknown>>) : [];
  const last = messages.findLast((m) => m['role'] === 'user');
  const content = last?.['content'];
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return (content as Array<Record<string, unknown>>).flatMap((b) => (b['type'] === 'text' && typeof b['text'] === 'string' ? [b['text']] : []));
}

/** The offline model's answer to `stream N [at R/s]`, found in any line of the prompt (reminders may sit around it). */
function replyFor(texts: string[]): Reply {
  let found: Reply | undefined;
  for (const text of texts) {
    for (const line of text.split('\n')) {
      const plan = planFor(line.trim());
      if (plan.kind === 'stream') found = { text: generateMarkdown(plan.words), words: plan.words, ...(plan.rate !== undefined && { rate: plan.rate }) };
    }
  }
  return found ?? { text: SHORT_ANSWER };
}

interface Events {
  head: string[];
  deltas: string[];
  tail: string[];
}

function anthropicEvents(model: string, text: string, inputTokens: number): Events {
  const head = [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_bench_1',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    }),
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    sse('ping', { type: 'ping' }),
  ];
  const deltas = chunkText(text, DELTA_CHARS).map((piece) =>
    sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }),
  );
  const tail = [
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: Math.ceil(text.length / 4) },
    }),
    sse('message_stop', { type: 'message_stop' }),
  ];
  return { head, deltas, tail };
}

function openaiEvents(model: string, text: string, inputTokens: number): Events {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    dataLine({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const outputTokens = Math.ceil(text.length / 4);
  return {
    head: [chunk({ role: 'assistant', content: '' })],
    deltas: chunkText(text, DELTA_CHARS).map((piece) => chunk({ content: piece })),
    tail: [
      chunk({}, 'stop'),
      dataLine({
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [],
        usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
      }),
      'data: [DONE]\n\n',
    ],
  };
}

function anthropicMessage(model: string, text: string, inputTokens: number): unknown {
  return {
    id: 'msg_bench_1',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: Math.ceil(text.length / 4) },
  };
}

function openaiCompletion(model: string, text: string, inputTokens: number): unknown {
  const outputTokens = Math.ceil(text.length / 4);
  return {
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
  };
}

/**
 * Writes the head at once, then delta i at start + i * 1000 / rate (as the offline model paces:
 * due times from the start, so a late timer catches up instead of drifting), then the tail.
 * Without a rate the deltas go as fast as the socket takes them.
 */
function streamPaced(res: http.ServerResponse, events: Events, rate: number | undefined, record: ServedRequest): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  res.on('close', () => {
    closed = true;
    if (timer) clearTimeout(timer);
    if (!res.writableFinished) record.disconnected = true;
  });
  for (const e of events.head) res.write(e);
  const start = performance.now();
  let i = 0;
  const finish = (): void => {
    record.durationMs = performance.now() - start;
    for (const e of events.tail) res.write(e);
    res.end();
  };
  const step = (): void => {
    timer = undefined;
    if (closed) return;
    const now = performance.now();
    let ok = true;
    while (i < events.deltas.length) {
      const due = rate ? start + (i * 1000) / rate : now;
      if (due > now) break;
      if (rate) record.maxLagMs = Math.max(record.maxLagMs, now - due);
      ok = res.write(events.deltas[i] ?? '');
      i++;
      record.deltas = i;
      if (!ok) break;
    }
    if (i >= events.deltas.length) {
      finish();
    } else if (!ok) {
      res.once('drain', step);
    } else {
      const due = start + (i * 1000) / (rate ?? Infinity);
      timer = setTimeout(step, Math.max(0, due - performance.now()));
    }
  };
  step();
}
