// /model's switch end to end below the UI: the session's next request names the chosen model (and
// goes to the chosen provider, with the chosen thinking effort), against protocol-exact loopback servers.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveProvider } from '../../../src/providers/registry.js';
import { setUpProvider } from '../../../src/runtime/provider-setup.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { openaiReply, startOpenAIServer, type OpenAIRequestBody } from '../../helpers/openai-server.js';

let home: string;
const servers: ScriptedServer<unknown>[] = [];
beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-switch-'));
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  await fs.rm(home, { recursive: true, force: true });
});

async function servers2() {
  const anthropic = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'from anthropic' }]));
  const openai = await startOpenAIServer(() => openaiReply({ text: 'from openai' }));
  servers.push(anthropic, openai);
  const env = { ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: anthropic.url, OPENAI_API_KEY: 'o', OPENAI_BASE_URL: openai.url };
  const resolved = resolveProvider({ flags: { provider: 'anthropic' }, env, cairnHome: home });
  const { provider, providerFor } = setUpProvider({ env, cairnHome: home, interactive: false, resolved });
  const session = new AgentSession({ provider, providerFor, tools: [], permissions: await allowEverything(), cwd: home, system: () => 's', interactive: false });
  return { anthropic, openai, session };
}

const models = (s: ScriptedServer<AnthropicRequestBody> | ScriptedServer<OpenAIRequestBody>): string[] => s.requests.map((r) => r.body.model);

describe('switching the model', () => {
  it('the next request names the model chosen; an alias (sonnet, opus) maps to the provider model of that tier', async () => {
    const { anthropic, session } = await servers2();
    await session.run('one');
    expect(session.switchModel('claude-opus-5-5')).toBe(true);
    await session.run('two');
    session.switchModel('haiku');
    await session.run('three');
    expect(models(anthropic)).toEqual(['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5']);
  });

  it("another configured provider: its endpoint gets the next request; /model NAME afterwards stays on that provider; the effort chosen sets the thinking budget", async () => {
    const { anthropic, openai, session } = await servers2();
    session.switchModel('gpt-5.4-mini', { provider: 'openai' });
    expect([session.providerName, session.model]).toEqual(['openai', 'gpt-5.4-mini']);
    await session.run('one');
    session.switchModel('gpt-5.4');
    await session.run('two');
    expect(models(openai)).toEqual(['gpt-5.4-mini', 'gpt-5.4']);
    session.switchModel('claude-opus-5-5', { provider: 'anthropic', effort: 'high' });
    await session.run('three');
    expect(models(anthropic)).toEqual(['claude-opus-5-5']);
    expect(anthropic.requests[0]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 10_000 });
  });

  it('a provider without its key: throws a ConfigError naming the variable, and the session stays as it was', async () => {
    const { session } = await servers2();
    expect(() => session.switchModel('deepseek-chat', { provider: 'deepseek' })).toThrow(/set DEEPSEEK_API_KEY/);
    expect([session.providerName, session.model]).toEqual(['anthropic', 'claude-sonnet-5-5']);
  });
});
