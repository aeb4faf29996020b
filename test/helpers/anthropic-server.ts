import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

// A scripted stand-in for the Anthropic Messages API on a loopback port. Each request is
// recorded (parsed body included) and answered with the next scripted response: a status,
// headers and SSE chunks written as given, optionally cut off. The same core serves the
// OpenAI stand-in in openai-server.ts.

export interface RecordedRequest<B = unknown> {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: B;
  raw: string;
  /** performance.now() when the first body byte of the reply was written. */
  firstByteAt?: number;
  /** True once the client went away before the reply was complete (abort, cut). */
  disconnected: boolean;
}

export interface ScriptedResponse {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** SSE chunks, each written as one write. Absent: `body` is sent as JSON. */
  chunks?: string[];
  body?: unknown;
  /** Write only the first n chunks, then cut the stream. */
  cutAfter?: number;
  /** 'destroy' (default) drops the connection; 'end' closes the response cleanly, just early. */
  cut?: 'destroy' | 'end';
  /** Keep the response open after the last chunk until the client goes away. */
  hold?: boolean;
  /** Pause between chunks. */
  delayMs?: number;
}

export type Script<B> =
  | ScriptedResponse[]
  | ((request: RecordedRequest<B>, index: number) => ScriptedResponse | Promise<ScriptedResponse>);

export interface ScriptedServer<B> {
  /** Base URL to hand to the SDK client. */
  url: string;
  requests: RecordedRequest<B>[];
  close(): Promise<void>;
}

/** The shape of the Anthropic request bodies tests look into. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: Array<{ type: string; text: string; cache_control?: unknown }>;
  messages: Array<{ role: 'user' | 'assistant'; content: Array<Record<string, unknown>> }>;
  tools?: Array<{ name: string; description: string; input_schema: unknown }>;
  thinking?: { type: string; budget_tokens?: number };
}

export async function startScriptedServer<B>(script: Script<B>, pathSuffix = ''): Promise<ScriptedServer<B>> {
  const requests: RecordedRequest<B>[] = [];
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      // A broken test script must fail loudly, not hang the client.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'test_server_error', message: String(err) } }));
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = '';
    req.setEncoding('utf8');
    for await (const piece of req) raw += piece as string;
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // kept as text; tests will see it is not JSON
    }
    const record: RecordedRequest<B> = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: body as B,
      raw,
      disconnected: false,
    };
    const index = requests.length;
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.disconnected = true;
    });
    const reply = typeof script === 'function' ? await script(record, index) : script[index];
    if (!reply) {
      res.writeHead(418, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'test_error', message: `test server: no scripted response for request ${index + 1}` } }));
      return;
    }
    await respond(res, reply, record);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${pathSuffix}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(res: http.ServerResponse, reply: ScriptedResponse, record: RecordedRequest<unknown>): Promise<void> {
  const status = reply.status ?? 200;
  if (reply.chunks === undefined) {
    res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body ?? {}));
    return;
  }
  res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  const chunks = reply.cutAfter !== undefined ? reply.chunks.slice(0, reply.cutAfter) : reply.chunks;
  for (const chunk of chunks) {
    if (res.destroyed) return;
    record.firstByteAt ??= performance.now();
    if (!res.write(chunk)) await drained(res);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
  }
  if (reply.cutAfter !== undefined) {
    if (reply.cut === 'end') {
      res.end();
      return;
    }
    // Let the written chunks reach the client, then drop the connection mid-stream.
    await new Promise<void>((resolve) => res.write('', () => resolve()));
    res.socket?.destroy();
    return;
  }
  if (reply.hold) {
    if (!res.destroyed) await new Promise<void>((resolve) => res.once('close', () => resolve()));
    return;
  }
  res.end();
}

function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

// ---- Anthropic SSE, byte for byte as the API sends it ----

export function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export type ScriptedBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export interface AnthropicStreamOptions {
  content: ScriptedBlock[];
  stopReason?: string;
  /** Characters per delta; default: each block's text in one delta. */
  chunkSize?: number;
  model?: string;
  usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
}

function pieces(text: string, size: number | undefined): string[] {
  if (!size || text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The full event sequence of one streamed message, one SSE event per chunk. */
export function anthropicStream(opts: AnthropicStreamOptions): string[] {
  const usage = opts.usage ?? {};
  const toolUse = opts.content.some((b) => b.type === 'tool_use');
  const chunks: string[] = [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_test_1',
        type: 'message',
        role: 'assistant',
        model: opts.model ?? 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input_tokens ?? 10,
          cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
          cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
          output_tokens: 1,
        },
      },
    }),
  ];
  opts.content.forEach((block, index) => {
    if (block.type === 'text') {
      chunks.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      if (index === 0) chunks.push(sse('ping', { type: 'ping' }));
      for (const text of pieces(block.text, opts.chunkSize)) {
        chunks.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
      }
    } else if (block.type === 'thinking') {
      chunks.push(
        sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      );
      for (const thinking of pieces(block.thinking, opts.chunkSize)) {
        chunks.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } }));
      }
      chunks.push(
        sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }),
      );
    } else if (block.type === 'redacted_thinking') {
      chunks.push(
        sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.data } }),
      );
    } else {
      chunks.push(
        sse('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const partial_json of pieces(JSON.stringify(block.input), opts.chunkSize)) {
        chunks.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
      }
    }
    chunks.push(sse('content_block_stop', { type: 'content_block_stop', index }));
  });
  chunks.push(
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: opts.stopReason ?? (toolUse ? 'tool_use' : 'end_turn'), stop_sequence: null },
      usage: { output_tokens: usage.output_tokens ?? 20 },
    }),
  );
  chunks.push(sse('message_stop', { type: 'message_stop' }));
  return chunks;
}

/** A 200 streaming reply with the given content. */
export function anthropicReply(content: ScriptedBlock[], opts: Omit<AnthropicStreamOptions, 'content'> = {}): ScriptedResponse {
  return { chunks: anthropicStream({ ...opts, content }) };
}

/** The `error` SSE event the API sends when it gives up mid-stream. */
export function anthropicErrorEvent(type: string, message: string): string {
  return sse('error', { type: 'error', error: { type, message } });
}

/** A non-streaming HTTP error reply with the API's JSON error body. */
export function anthropicHttpError(status: number, type: string, message: string, headers?: Record<string, string>): ScriptedResponse {
  const reply: ScriptedResponse = { status, body: { type: 'error', error: { type, message } } };
  if (headers) reply.headers = headers;
  return reply;
}

/** True when the request's last message carries tool results (a script's cue to answer in text). */
export function hasToolResults(body: AnthropicRequestBody): boolean {
  return body.messages.at(-1)?.content.some((b) => b['type'] === 'tool_result') ?? false;
}

export function startAnthropicServer(script: Script<AnthropicRequestBody>): Promise<ScriptedServer<AnthropicRequestBody>> {
  return startScriptedServer(script);
}
