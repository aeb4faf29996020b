import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinPriceTable } from '../../../src/pricing.js';
import { modelCatalog } from '../../../src/providers/model-catalog.js';
import { startScriptedServer, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { anthropicModelsReply, isModelList, openaiModelsReply } from '../../helpers/model-list-replies.js';

let home: string;
const servers: ScriptedServer<unknown>[] = [];
beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-catalog-'));
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  await fs.rm(home, { recursive: true, force: true });
});

async function serve(reply: Parameters<typeof startScriptedServer<unknown>>[0], suffix = ''): Promise<ScriptedServer<unknown>> {
  const server = await startScriptedServer<unknown>(reply, suffix);
  servers.push(server);
  return server;
}

describe('modelCatalog', () => {
  it("lists the current model first, then the preset's and the endpoint's, each with context size and price; other providers whose key is set follow", async () => {
    const anthropic = await serve((req) => (isModelList(req) ? anthropicModelsReply(['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5']) : { status: 404 }));
    const openai = await serve((req) => (isModelList(req) ? openaiModelsReply(['gpt-5.4-mini', 'text-embedding-3-small']) : { status: 404 }), '/v1');
    const env = { ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: anthropic.url, OPENAI_API_KEY: 'o', OPENAI_BASE_URL: openai.url };
    const catalog = await modelCatalog({ cairnHome: home, env, current: { provider: 'anthropic', model: 'claude-haiku-5-5' }, prices: builtinPriceTable });
    expect(catalog.problems).toEqual([]);
    expect(catalog.rows.map((r) => `${r.provider}/${r.model} ${r.source}`)).toEqual([
      'anthropic/claude-haiku-5-5 current',
      'anthropic/claude-sonnet-5-5 preset',
      'anthropic/claude-opus-5-5 endpoint',
      'openai/gpt-5.4 preset',
      'openai/gpt-5.4-mini endpoint',
    ]);
    expect(catalog.rows[2]).toMatchObject({ contextWindow: 200_000, price: { input: 4, output: 20 }, effort: true, api: 'anthropic' });
    expect(catalog.rows[4]).toMatchObject({ contextWindow: 400_000, price: { input: 0.75, output: 4.5 }, api: 'openai' });
    expect(catalog.configFile).toBe(path.join(home, 'config.json'));
  });

  it("an endpoint that fails is a problem beside the list; config.json's providers, model and prices count", async () => {
    const local = await serve(() => ({ status: 500, body: { error: 'down' } }), '/v1');
    await fs.writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ model: 'local-big', providers: { local: { api: 'openai', baseUrl: local.url, defaultModel: 'local-small', contextWindow: 64_000 } }, pricing: { 'local-small': { input: 0.5, output: 1 } } }),
    );
    const prices = { ...builtinPriceTable, prices: { ...builtinPriceTable.prices, 'local-small': { input: 0.5, output: 1 } } };
    const catalog = await modelCatalog({ cairnHome: home, env: {}, current: { provider: 'offline', model: 'offline' }, prices });
    expect(catalog.rows.map((r) => `${r.provider}/${r.model} ${r.source}`)).toEqual(['offline/offline current', 'local/local-small config.json']);
    expect(catalog.rows[1]).toMatchObject({ contextWindow: 64_000, price: { input: 0.5, output: 1 } });
    expect(catalog.problems).toEqual([`local: ${local.url}/models: HTTP 500 Internal Server Error`]);
  });

  it('the offline model alone when no provider is configured; a config.json that broke after start-up is a problem naming it, not a crash', async () => {
    const alone = await modelCatalog({ cairnHome: home, env: {}, current: { provider: 'offline', model: 'offline' }, prices: builtinPriceTable });
    expect(alone.rows).toEqual([{ provider: 'offline', api: 'offline', model: 'offline', contextWindow: 200_000, price: { input: 0, output: 0 }, source: 'current', effort: false }]);
    expect(alone.problems).toEqual([]);
    await fs.writeFile(path.join(home, 'config.json'), '{ "model": ');
    const broken = await modelCatalog({ cairnHome: home, env: {}, current: { provider: 'offline', model: 'offline' }, prices: builtinPriceTable });
    expect(broken.rows.map((r) => r.model)).toEqual(['offline']);
    expect(broken.problems[0]).toContain(`${path.join(home, 'config.json')}: not valid JSON`);
  });
});
