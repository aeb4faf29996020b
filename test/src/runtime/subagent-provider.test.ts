// A subagent whose definition names a model runs on the provider the session uses now: after /model
// switched from Anthropic to OpenAI, `model: haiku` and `model: gpt-5.4-mini` reach the OpenAI server,
// not the start-up provider's. A real runtime against two protocol-exact loopback servers.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { hasToolResults, openaiReply, startOpenAIServer, type OpenAIRequestBody } from '../../helpers/openai-server.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

const runtimes: Runtime[] = [];
const servers: ScriptedServer<unknown>[] = [];
afterEach(async () => {
  for (const r of runtimes.splice(0)) r.close();
  for (const s of servers.splice(0)) await s.close();
});

const agent = (name: string, model: string): string => `---\nname: ${name}\ndescription: Looks things up\ntools: Read\nmodel: ${model}\n---\nLook it up.`;
const call = (id: string, type: string) => ({ id, name: 'agent', arguments: JSON.stringify({ type, task: 'look it up', description: 'look' }) });

async function start() {
  const anthropic = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'from anthropic' }]));
  // The lead (gpt-5.4) calls both agents, then answers; the agents answer on their own models.
  const openai = await startOpenAIServer((req) => {
    if (req.body.model !== 'gpt-5.4') return openaiReply({ text: `${req.body.model} found it` });
    return hasToolResults(req.body) ? openaiReply({ text: 'lead done' }) : openaiReply({ toolCalls: [call('c1', 'by-alias'), call('c2', 'by-id')] });
  });
  servers.push(anthropic, openai);
  const ws = await tempWorkspace({ '.claude/agents/by-alias.md': agent('by-alias', 'haiku'), '.claude/agents/by-id.md': agent('by-id', 'gpt-5.4-mini') });
  const userHome = path.join(path.dirname(ws.dir), 'user');
  await fs.mkdir(userHome, { recursive: true });
  const runtime = await createRuntime({
    cwd: ws.dir,
    env: { HOME: userHome, CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: anthropic.url, OPENAI_API_KEY: 'o', OPENAI_BASE_URL: openai.url },
    interactive: false,
    persist: false,
    provider: 'anthropic',
  });
  runtimes.push(runtime);
  await runtime.finishStartup();
  return { runtime, anthropic, openai };
}

const models = (s: ScriptedServer<AnthropicRequestBody> | ScriptedServer<OpenAIRequestBody>): string[] => s.requests.filter((r) => r.method === 'POST').map((r) => r.body.model);

describe('a subagent that names a model, after /model switched provider', () => {
  it('runs on the provider in use: an alias as its tier of that provider, a model id as written; the start-up provider gets nothing', async () => {
    const { runtime, anthropic, openai } = await start();
    runtime.session.switchModel('gpt-5.4', { provider: 'openai' });
    const end = await runtime.session.run('find it');
    expect(end.reason).toBe('completed');
    expect(models(anthropic)).toEqual([]);
    expect([...models(openai)].sort()).toEqual(['gpt-5.4', 'gpt-5.4', 'gpt-5.4-mini', 'gpt-5.4-mini']);
    const results = JSON.stringify(openai.requests.at(-1)?.body.messages);
    expect(results.match(/gpt-5\.4-mini found it/g)).toHaveLength(2);
  });
});
