import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/messages.js';
import { createAnthropicProvider } from '../../../src/providers/anthropic.js';
import type { AnthropicProviderOptions } from '../../../src/providers/anthropic.js';
import { ProviderError } from '../../../src/providers/provider.js';
import type { ModelRequest, ModelStreamEvent, ToolSpec } from '../../../src/providers/provider.js';
import {
  anthropicErrorEvent,
  anthropicHttpError,
  anthropicReply,
  anthropicStream,
  hasToolResults,
  startAnthropicServer,
} from '../../helpers/anthropic-server.js';
import type { AnthropicRequestBody, Script, ScriptedServer } from '../../helpers/anthropic-server.js';

const servers: Array<ScriptedServer<AnthropicRequestBody>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Script<AnthropicRequestBody>): Promise<ScriptedServer<AnthropicRequestBody>> {
  const server = await startAnthropicServer(script);
  servers.push(server);
  return server;
}

function setup(server: ScriptedServer<AnthropicRequestBody>, extra: Partial<AnthropicProviderOptions> = {}) {
  const delays: number[] = [];
  const provider = createAnthropicProvider({
    apiKey: 'sk-test',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    baseUrl: server.url,
    model: 'claude-test',
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });
  return { provider, delays };
}

const READ_TOOL: ToolSpec = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

function request(messages: Message[], signal = new AbortController().signal): ModelRequest {
  return { model: 'claude-test', system: 'You are cairn.', messages, tools: [READ_TOOL], maxTokens: 1024, signal };
}

const prompt = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

async function run(stream: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error?: unknown }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

function finalMessage(events: ModelStreamEvent[]): Message {
  const messages = events.filter((e) => e.type === 'message');
  expect(messages).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('message');
  const last = events.at(-1);
  if (last?.type !== 'message') throw new Error('no message');
  return last.message;
}

describe('anthropic provider', () => {
  it('streams text, reports usage and sends a cached system prompt and history breakpoint', async () => {
    const server = await serve([
      anthropicReply([{ type: 'text', text: 'Hello there' }], {
        chunkSize: 4,
        usage: { input_tokens: 42, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 5 },
      }),
    ]);
    const { provider } = setup(server);
    const history = [prompt('hi')];
    const { events, error } = await run(provider.stream(request(history)));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'text_delta', text: 'Hell' },
      { type: 'text_delta', text: 'o th' },
      { type: 'text_delta', text: 'ere' },
      { type: 'usage', usage: { input_tokens: 42, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 5 } },
      { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Hello there' }] }, stopReason: 'end_turn' },
    ]);
    const sent = server.requests[0];
    expect(sent?.path).toBe('/v1/messages');
    // This SDK version sends the key as a bearer token.
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toMatchObject({
      model: 'claude-test',
      max_tokens: 1024,
      stream: true,
      system: [{ type: 'text', text: 'You are cairn.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }],
      tools: [READ_TOOL],
    });
    expect(sent?.body.thinking).toBeUndefined();
    // The breakpoint went on a copy: the caller's history is untouched.
    expect(history).toEqual([prompt('hi')]);
  });

  it('assembles two parallel tool calls from one-character JSON pieces and pairs the results next turn', async () => {
    const server = await serve([
      anthropicReply(
        [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'dir/b "q".ts' } },
        ],
        { chunkSize: 1 },
      ),
      anthropicReply([{ type: 'text', text: 'Done.' }]),
    ]);
    const { provider } = setup(server);
    const history: Message[] = [prompt('read a and b')];
    const first = await run(provider.stream(request(history)));
    expect(first.error).toBeUndefined();
    const assistant = finalMessage(first.events);
    expect(assistant.content).toEqual([
      { type: 'text', text: 'Reading both.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'dir/b "q".ts' } },
    ]);
    expect(first.events.at(-1)).toMatchObject({ stopReason: 'tool_use' });

    history.push(assistant, {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'contents of a' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'ENOENT', is_error: true },
      ],
    });
    const second = await run(provider.stream(request(history)));
    expect(second.error).toBeUndefined();
    expect(server.requests[1]?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read a and b' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'dir/b "q".ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'contents of a' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'ENOENT', is_error: true, cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('streams thinking and echoes the signed thinking block unchanged on the next request', async () => {
    const server = await serve([
      anthropicReply(
        [
          { type: 'thinking', thinking: 'The user wants a file read.', signature: 'sig-abc123==' },
          { type: 'redacted_thinking', data: 'opaque-redacted' },
          { type: 'tool_use', id: 'toolu_9', name: 'read_file', input: { path: 'x' } },
        ],
        { chunkSize: 10 },
      ),
      anthropicReply([{ type: 'text', text: 'ok' }]),
    ]);
    const { provider } = setup(server, { thinking: { enabled: true, budgetTokens: 2000 } });
    const history: Message[] = [prompt('read x')];
    const first = await run(provider.stream(request(history)));
    expect(first.error).toBeUndefined();
    expect(first.events.filter((e) => e.type === 'thinking_delta').map((e) => (e.type === 'thinking_delta' ? e.text : ''))).toEqual([
      'The user w',
      'ants a fil',
      'e read.',
    ]);
    const assistant = finalMessage(first.events);
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: 'The user wants a file read.', signature: 'sig-abc123==' });
    expect(assistant.content[1]).toEqual({ type: 'redacted_thinking', data: 'opaque-redacted' });
    expect(server.requests[0]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
    expect(server.requests[0]?.body.max_tokens).toBeGreaterThan(2000);

    history.push(assistant, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] });
    await run(provider.stream(request(history)));
    expect(server.requests[1]?.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants a file read.', signature: 'sig-abc123==' },
        { type: 'redacted_thinking', data: 'opaque-redacted' },
        { type: 'tool_use', id: 'toolu_9', name: 'read_file', input: { path: 'x' } },
      ],
    });
  });

  it('falls back to plain streaming with a notice when the gateway rejects thinking', async () => {
    const server = await serve([
      anthropicHttpError(400, 'invalid_request_error', 'thinking is not supported by this model'),
      anthropicReply([{ type: 'text', text: 'plain' }]),
      anthropicReply([{ type: 'text', text: 'again' }]),
    ]);
    const { provider } = setup(server, { thinking: { enabled: true, budgetTokens: 4000 } });
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeUndefined();
    expect(events[0]).toMatchObject({ type: 'notice', level: 'warning', code: 'thinking_unsupported' });
    expect(finalMessage(events).content).toEqual([{ type: 'text', text: 'plain' }]);
    expect(server.requests[0]?.body.thinking).toBeDefined();
    expect(server.requests[1]?.body.thinking).toBeUndefined();
    // Later calls don't try again.
    await run(provider.stream(request([prompt('again')])));
    expect(server.requests[2]?.body.thinking).toBeUndefined();
  });

  it('retries a 529 with a visible notice and then succeeds', async () => {
    const server = await serve([
      anthropicHttpError(529, 'overloaded_error', 'Overloaded'),
      anthropicReply([{ type: 'text', text: 'made it' }]),
    ]);
    const { provider, delays } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeUndefined();
    expect(events[0]).toEqual({
      type: 'notice',
      level: 'warning',
      code: 'retry',
      message: 'anthropic: overloaded (529), retrying in 1.0s (attempt 2 of 3)',
    });
    expect(finalMessage(events).content).toEqual([{ type: 'text', text: 'made it' }]);
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([1000]);
    // A retry is the same call again, from scratch.
    expect(server.requests[1]?.body).toEqual(server.requests[0]?.body);
  });

  it('waits as long as Retry-After says on a 429', async () => {
    const server = await serve([
      anthropicHttpError(429, 'rate_limit_error', 'Slow down', { 'retry-after': '7' }),
      anthropicReply([{ type: 'text', text: 'ok' }]),
    ]);
    const { provider, delays } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeUndefined();
    expect(delays).toEqual([7000]);
    expect(events[0]).toMatchObject({ type: 'notice', code: 'retry', message: expect.stringContaining('rate limited (429), retrying in 7.0s') });
  });

  it.each(['destroy', 'end'] as const)('retries a stream cut (%s) halfway through a text block and never yields the half message', async (cut) => {
    const chunks = anthropicStream({ content: [{ type: 'text', text: 'abcdefgh' }], chunkSize: 2 });
    // message_start, content_block_start, ping, then two of the four deltas.
    const server = await serve([{ chunks, cutAfter: 5, cut }, anthropicReply([{ type: 'text', text: 'complete answer' }])]);
    const { provider } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeUndefined();
    expect(events.slice(0, 4)).toEqual([
      { type: 'text_delta', text: 'ab' },
      { type: 'text_delta', text: 'cd' },
      // The failed attempt's tokens were spent: the input message_start reported counts.
      { type: 'usage', usage: expect.objectContaining({ input_tokens: 10 }) },
      expect.objectContaining({ type: 'notice', code: 'retry', level: 'warning' }),
    ]);
    expect(finalMessage(events).content).toEqual([{ type: 'text', text: 'complete answer' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('retries when an overloaded_error event arrives mid-stream', async () => {
    const good = anthropicStream({ content: [{ type: 'text', text: 'partial' }] });
    const server = await serve([
      { chunks: [...good.slice(0, 4), anthropicErrorEvent('overloaded_error', 'Overloaded')] },
      anthropicReply([{ type: 'text', text: 'second try' }]),
    ]);
    const { provider } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeUndefined();
    const notice = events.find((e) => e.type === 'notice');
    expect(notice).toMatchObject({ code: 'retry', message: expect.stringMatching(/^anthropic: overloaded \(overloaded_error mid-stream\), retrying in .* \(attempt 2 of 3\)$/) });
    expect(finalMessage(events).content).toEqual([{ type: 'text', text: 'second try' }]);
  });

  it('does not retry a 401 and says which key to check', async () => {
    const server = await serve([anthropicHttpError(401, 'authentication_error', 'invalid x-api-key')]);
    const { provider, delays } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('anthropic: invalid API key: check ANTHROPIC_API_KEY (401): invalid x-api-key');
    expect((error as ProviderError).status).toBe(401);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('a JSON answer to a streaming request is an error naming the endpoint and what it sent, not retried', async () => {
    const server = await serve([{ body: { id: 'msg_1', type: 'message', content: [] } }]);
    const { provider, delays } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe(`anthropic: ${server.url} answered a streaming request with application/json, not an event stream`);
    expect(events.filter((e) => e.type === 'text_delta')).toEqual([]);
    expect(delays).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('a stream labelled text/plain by a loose gateway is still read as it arrives', async () => {
    const server = await serve([{ ...anthropicReply([{ type: 'text', text: 'loose but fine' }], { chunkSize: 5 }), headers: { 'content-type': 'text/plain' } }]);
    const { provider } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).toBe('loose but fine');
  });

  it('names the model and base URL on a 404', async () => {
    const server = await serve([anthropicHttpError(404, 'not_found_error', 'model: nope')]);
    const { provider } = setup(server, { model: 'nope' });
    const { error } = await run(provider.stream({ ...request([prompt('hi')]), model: 'nope' }));
    expect((error as Error).message).toContain(`unknown model 'nope' or wrong base URL (${server.url})`);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after three tries with a ProviderError', async () => {
    const overloaded = anthropicHttpError(529, 'overloaded_error', 'Overloaded');
    const server = await serve([overloaded, overloaded, overloaded, anthropicReply([{ type: 'text', text: 'never' }])]);
    const { provider, delays } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('anthropic: overloaded (529): Overloaded (gave up after 3 attempts)');
    expect(events.map((e) => e.type)).toEqual(['notice', 'notice']);
    expect(delays).toEqual([1000, 2000]);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a refused connection and then reports where it could not connect', async () => {
    const server = await serve([]);
    const url = server.url;
    await server.close();
    servers.length = 0;
    const provider = createAnthropicProvider({ apiKey: 'k', baseUrl: url, model: 'm', maxRetries: 1, sleep: async () => {} });
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(events).toEqual([expect.objectContaining({ type: 'notice', code: 'retry', message: expect.stringContaining('connection error') })]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain(`cannot reach ${url}`);
  });

  it('stops at once on abort, cancels the HTTP request and does not retry', async () => {
    const chunks = anthropicStream({ content: [{ type: 'text', text: 'abcdef' }], chunkSize: 2 });
    const server = await serve([{ chunks: chunks.slice(0, 4), hold: true }]);
    const { provider, delays } = setup(server);
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    let error: unknown;
    try {
      for await (const e of provider.stream(request([prompt('hi')], controller.signal))) {
        events.push(e);
        if (e.type === 'text_delta') controller.abort();
      }
    } catch (err) {
      error = err;
    }
    expect((error as Error).name).toBe('AbortError');
    // Nothing after the abort but what the cut call used.
    expect(events).toEqual([{ type: 'text_delta', text: 'ab' }, { type: 'usage', usage: expect.objectContaining({ input_tokens: 10, output_tokens: 1 }) }]);
    await expect.poll(() => server.requests[0]?.disconnected).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('a stream interrupted mid-answer reports its usage: the input message_start gave, and the output received (estimated)', async () => {
    const text = 'A long answer that the user stops halfway through, before the model says how long it was.';
    const chunks = anthropicStream({ content: [{ type: 'text', text }], usage: { input_tokens: 12_000, cache_read_input_tokens: 3000 } });
    const server = await serve([{ chunks: chunks.slice(0, -3), hold: true }]);
    const { provider } = setup(server);
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    try {
      for await (const e of provider.stream(request([prompt('hi')], controller.signal))) {
        events.push(e);
        if (e.type === 'text_delta') controller.abort();
      }
    } catch {
      // the abort
    }
    const usage = events.find((e) => e.type === 'usage');
    expect(usage).toEqual({
      type: 'usage',
      usage: { input_tokens: 12_000, cache_read_input_tokens: 3000, cache_creation_input_tokens: 0, output_tokens: Math.ceil(text.length / 4), estimated: true },
    });
  });

  it('serves a multi-turn exchange from a function script', async () => {
    const server = await serve((req) =>
      hasToolResults(req.body)
        ? anthropicReply([{ type: 'text', text: 'the file says hi' }])
        : anthropicReply([{ type: 'tool_use', id: `toolu_${req.body.messages.length}`, name: 'read_file', input: { path: 'x' } }]),
    );
    const { provider } = setup(server);
    const history: Message[] = [prompt('what is in x?')];
    const first = await run(provider.stream(request(history)));
    const call = finalMessage(first.events);
    expect(call.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'x' } }]);
    history.push(call, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi' }] });
    const second = await run(provider.stream(request(history)));
    expect(finalMessage(second.events).content).toEqual([{ type: 'text', text: 'the file says hi' }]);
  });
});
