import { afterEach, describe, expect, it } from 'vitest';
import { fetchModelList } from '../../../src/providers/model-list.js';
import { startScriptedServer, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { anthropicModelsReply, openaiModelsReply } from '../../helpers/model-list-replies.js';

const servers: ScriptedServer<unknown>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(...args: Parameters<typeof startScriptedServer<unknown>>): Promise<ScriptedServer<unknown>> {
  const server = await startScriptedServer<unknown>(...args);
  servers.push(server);
  return server;
}

describe('fetchModelList', () => {
  it("asks Anthropic's GET /v1/models with the key and version headers, and reads ids and context sizes", async () => {
    const server = await serve([anthropicModelsReply(['claude-opus-5-5', { id: 'claude-haiku-5-5', max_input_tokens: 180_000 }])]);
    const list = await fetchModelList({ api: 'anthropic', baseUrl: `${server.url}/`, apiKey: 'sk-ant-test' });
    expect(list).toEqual({ ok: true, models: [{ id: 'claude-opus-5-5' }, { id: 'claude-haiku-5-5', contextWindow: 180_000 }] });
    const [req] = server.requests;
    expect(req).toMatchObject({ method: 'GET', path: '/v1/models?limit=100' });
    expect(req?.headers['x-api-key']).toBe('sk-ant-test');
    expect(req?.headers['anthropic-version']).toBe('2023-06-01');
  });

  it("asks OpenAI's GET <base>/models with a bearer key, leaves out models that cannot chat, and takes OpenRouter's context and price", async () => {
    const server = await serve([
      openaiModelsReply([
        'gpt-5.4',
        'text-embedding-3-large',
        'whisper-1',
        'gpt-4o-mini-tts',
        { id: 'vendor/some-model', context_length: 65_536, pricing: { prompt: '0.0000012', completion: '0.000006' } },
      ]),
    ], '/v1');
    const list = await fetchModelList({ api: 'openai', baseUrl: server.url, apiKey: 'sk-oai' });
    expect(list).toEqual({ ok: true, models: [{ id: 'gpt-5.4' }, { id: 'vendor/some-model', contextWindow: 65_536, price: { input: 1.2, output: 6 } }] });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-oai');
  });

  it('returns a failure naming the URL and why, never throws: an HTTP error, a body without data, no server, a server that does not answer', async () => {
    const server = await serve([{ status: 401, body: { error: { message: 'bad key' } } }, { body: { models: [] } }, { body: {}, chunks: ['not json'] }]);
    const denied = await fetchModelList({ api: 'openai', baseUrl: server.url, apiKey: 'x' });
    expect(denied).toEqual({ ok: false, error: `${server.url}/models: HTTP 401 Unauthorized` });
    const shapeless = await fetchModelList({ api: 'openai', baseUrl: server.url });
    expect(shapeless).toEqual({ ok: false, error: `${server.url}/models: the answer has no "data" list` });
    const garbled = await fetchModelList({ api: 'openai', baseUrl: server.url });
    expect(garbled).toEqual({ ok: false, error: `${server.url}/models: the answer is not JSON` });

    await server.close();
    const gone = await fetchModelList({ api: 'anthropic', baseUrl: server.url });
    expect(gone.ok).toBe(false);
    expect(!gone.ok && gone.error).toContain(`${server.url}/v1/models?limit=100: `);

    const silent = await serve(() => ({ chunks: [], hold: true }));
    const started = Date.now();
    const slow = await fetchModelList({ api: 'openai', baseUrl: silent.url }, 300);
    expect(slow).toEqual({ ok: false, error: `${silent.url}/models: no answer within 300 ms` });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('the offline model has no list to ask for', async () => {
    expect(await fetchModelList({ api: 'offline', baseUrl: '' })).toEqual({ ok: true, models: [] });
  });
});
