import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/messages.js';
import { createOpenAIProvider } from '../../../src/providers/openai.js';
import type { OpenAIProviderOptions } from '../../../src/providers/openai.js';
import { ProviderError } from '../../../src/providers/provider.js';
import type { ModelRequest, ModelStreamEvent, ToolSpec } from '../../../src/providers/provider.js';
import { invalidToolArguments } from '../../../src/providers/tool-arguments.js';
import { dataLine, openaiHttpError, openaiReply, openaiStream, startOpenAIServer } from '../../helpers/openai-server.js';
import type { OpenAIRequestBody, Script, ScriptedServer } from '../../helpers/openai-server.js';

const servers: Array<ScriptedServer<OpenAIRequestBody>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Script<OpenAIRequestBody>): Promise<ScriptedServer<OpenAIRequestBody>> {
  const server = await startOpenAIServer(script);
  servers.push(server);
  return server;
}

function setup(server: ScriptedServer<OpenAIRequestBody>, extra: Partial<OpenAIProviderOptions> = {}) {
  const delays: number[] = [];
  const provider = createOpenAIProvider({
    apiKey: 'sk-openai',
    apiKeyEnv: 'OPENAI_API_KEY',
    baseUrl: server.url,
    model: 'gpt-test',
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

function request(messages: Message[]): ModelRequest {
  return { model: 'gpt-test', system: 'You are cairn.', messages, tools: [READ_TOOL], maxTokens: 512, signal: new AbortController().signal };
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
  expect(events.filter((e) => e.type === 'message')).toHaveLength(1);
  const last = events.at(-1);
  if (last?.type !== 'message') throw new Error(`last event is ${last?.type}`);
  return last.message;
}

describe('openai provider', () => {
  it('streams text, maps usage and sends a streaming chat request with usage included', async () => {
    const server = await serve([
      openaiReply({ text: 'Hi there!', chunkSize: 3, usage: { prompt_tokens: 120, completion_tokens: 9, cached_tokens: 100 } }),
    ]);
    const { provider } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hello')])));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'text_delta', text: 'Hi ' },
      { type: 'text_delta', text: 'the' },
      { type: 'text_delta', text: 're!' },
      { type: 'usage', usage: { input_tokens: 20, output_tokens: 9, cache_read_input_tokens: 100 } },
      { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Hi there!' }] }, stopReason: 'end_turn' },
    ]);
    const sent = server.requests[0];
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-openai');
    expect(sent?.body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 512,
      messages: [
        { role: 'system', content: 'You are cairn.' },
        { role: 'user', content: 'hello' },
      ],
      tools: [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: READ_TOOL.input_schema } }],
    });
  });

  it('assembles interleaved parallel tool calls by index and sends results back as tool messages', async () => {
    const server = await serve([
      openaiReply({
        text: 'Reading.',
        toolCalls: [
          { id: 'call_a', name: 'read_file', arguments: JSON.stringify({ path: 'a.ts' }) },
          { id: 'call_b', name: 'read_file', arguments: JSON.stringify({ path: 'b "c".ts' }) },
        ],
        chunkSize: 1,
        interleave: true,
      }),
      openaiReply({ text: 'Both read.' }),
    ]);
    const { provider } = setup(server);
    const history: Message[] = [prompt('read a and b')];
    const first = await run(provider.stream(request(history)));
    expect(first.error).toBeUndefined();
    const assistant = finalMessage(first.events);
    expect(assistant.content).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool_use', id: 'call_b', name: 'read_file', input: { path: 'b "c".ts' } },
    ]);
    expect(first.events.at(-1)).toMatchObject({ stopReason: 'tool_use' });

    history.push(assistant, {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_a', content: [{ type: 'text', text: 'A' }] },
        { type: 'tool_result', tool_use_id: 'call_b', content: 'no such file', is_error: true },
        { type: 'text', text: 'and be quick' },
      ],
    });
    const second = await run(provider.stream(request(history)));
    expect(second.error).toBeUndefined();
    expect(server.requests[1]?.body.messages).toEqual([
      { role: 'system', content: 'You are cairn.' },
      { role: 'user', content: 'read a and b' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
          { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path":"b \\"c\\".ts"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'A' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: no such file' },
      { role: 'user', content: 'and be quick' },
    ]);
  });

  it('maps reasoning_content to thinking and leaves it out of the next request', async () => {
    const server = await serve([openaiReply({ reasoning: 'Let me think.', text: 'Answer.' }), openaiReply({ text: 'ok' })]);
    const { provider } = setup(server);
    const first = await run(provider.stream(request([prompt('q')])));
    expect(first.events.slice(0, 2)).toEqual([
      { type: 'thinking_delta', text: 'Let me think.' },
      { type: 'text_delta', text: 'Answer.' },
    ]);
    const assistant = finalMessage(first.events);
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.' },
      { type: 'text', text: 'Answer.' },
    ]);
    await run(provider.stream(request([prompt('q'), assistant, prompt('next')])));
    expect(server.requests[1]?.body.messages[2]).toEqual({ role: 'assistant', content: 'Answer.' });
  });

  it('keeps a tool call with invalid JSON arguments, with the raw text for the error result', async () => {
    const raw = '{"path": "src/a.ts", oops';
    const server = await serve([
      openaiReply({ toolCalls: [{ id: 'call_x', name: 'read_file', arguments: raw }], chunkSize: 4 }),
      openaiReply({ text: 'retrying properly' }),
    ]);
    const { provider } = setup(server);
    const first = await run(provider.stream(request([prompt('read')])));
    expect(first.error).toBeUndefined();
    const assistant = finalMessage(first.events);
    const call = assistant.content[0];
    expect(call).toEqual({ type: 'tool_use', id: 'call_x', name: 'read_file', input: { _raw_arguments: raw } });
    const message = invalidToolArguments(call?.type === 'tool_use' ? call.input : undefined);
    expect(message).toContain(`You sent: ${raw}`);

    const history: Message[] = [
      prompt('read'),
      assistant,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_x', content: message ?? '', is_error: true }] },
    ];
    await run(provider.stream(request(history)));
    const sent = server.requests[1]?.body.messages ?? [];
    // The echoed call stays valid JSON so strict servers accept the history.
    const echoed = sent[2]?.tool_calls?.[0]?.function.arguments ?? '';
    expect(JSON.parse(echoed)).toEqual({ _raw_arguments: raw });
    expect(sent[3]).toEqual({ role: 'tool', tool_call_id: 'call_x', content: `Error: ${message}` });
  });

  it('does not retry a 401 and says which key to check', async () => {
    const server = await serve([openaiHttpError(401, 'Incorrect API key provided')]);
    const { provider, delays } = setup(server);
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe('openai: invalid API key: check OPENAI_API_KEY (401): Incorrect API key provided');
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries a 500, a stream without finish_reason and an error chunk, then succeeds', async () => {
    const cut = openaiStream({ text: 'half an answer', chunkSize: 5 });
    const server = await serve([
      openaiHttpError(500, 'The server had an error'),
      { chunks: cut, cutAfter: 3, cut: 'end' },
      { chunks: [...cut.slice(0, 2), dataLine({ error: { message: 'upstream overloaded', type: 'server_error' } })] },
      openaiReply({ text: 'finally' }),
    ]);
    const { provider, delays } = setup(server, { maxRetries: 3 });
    const { events, error } = await run(provider.stream(request([prompt('hi')])));
    expect(error).toBeUndefined();
    const notices = events.filter((e) => e.type === 'notice').map((e) => (e.type === 'notice' ? e.message : ''));
    expect(notices).toEqual([
      'openai: server error (500), retrying in 1.0s (attempt 2 of 4)',
      'openai: stream ended early, retrying in 2.0s (attempt 3 of 4)',
      'openai: error mid-stream, retrying in 4.0s (attempt 4 of 4)',
    ]);
    expect(delays).toEqual([1000, 2000, 4000]);
    expect(finalMessage(events).content).toEqual([{ type: 'text', text: 'finally' }]);
  });

  it('sends max_completion_tokens when told to (the default for api.openai.com)', async () => {
    const server = await serve([openaiReply({ text: 'x' })]);
    const { provider } = setup(server, { maxTokensField: 'max_completion_tokens' });
    await run(provider.stream(request([prompt('hi')])));
    expect(server.requests[0]?.body.max_completion_tokens).toBe(512);
    expect(server.requests[0]?.body.max_tokens).toBeUndefined();
  });

  it('stops on abort mid-stream without retrying and closes the connection', async () => {
    const chunks = openaiStream({ text: 'abcdef', chunkSize: 2 });
    const server = await serve([{ chunks: chunks.slice(0, 3), hold: true }]);
    const { provider, delays } = setup(server);
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    let error: unknown;
    try {
      for await (const e of provider.stream({ ...request([prompt('hi')]), signal: controller.signal })) {
        events.push(e);
        if (e.type === 'text_delta') controller.abort();
      }
    } catch (err) {
      error = err;
    }
    expect((error as Error).name).toBe('AbortError');
    // Usage comes only in the last chunk: what the cut call used is estimated from what was sent and received.
    expect(events).toEqual([{ type: 'text_delta', text: 'ab' }, { type: 'usage', usage: { input_tokens: expect.any(Number), output_tokens: 1, estimated: true } }]);
    expect((events[1] as { usage: { input_tokens: number } }).usage.input_tokens).toBeGreaterThan(0);
    await expect.poll(() => server.requests[0]?.disconnected).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });
});
