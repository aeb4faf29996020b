// /model's picker through the app's own key wiring, against protocol-exact loopback servers that
// list models (GET /v1/models, GET /v1/models on the OpenAI side) and answer prompts.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelActions } from '../../../components/commands/model-command.js';
import { builtinPriceTable } from '../../../src/pricing.js';
import { resolveProvider } from '../../../src/providers/registry.js';
import { setUpProvider } from '../../../src/runtime/provider-setup.js';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { anthropicModelsReply, isModelList, openaiModelsReply } from '../../helpers/model-list-replies.js';
import { openaiReply, startOpenAIServer, type OpenAIRequestBody } from '../../helpers/openai-server.js';
import { createRig, KEYS } from '../../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  rig?.cleanup();
  rig = undefined;
  for (const c of cleanups.splice(0)) await c();
});

const CTRL_S = '\x13';
const RIGHT = '\x1b[C';
// Alt+P as a terminal sends it (Esc, then p).
const ALT_P = '\x1bp';

async function rigOnLoopback(configJson?: string) {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-model-picker-'));
  if (configJson !== undefined) await fs.writeFile(path.join(home, 'config.json'), configJson);
  const anthropic = await startAnthropicServer((req) =>
    isModelList(req) ? anthropicModelsReply(['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5']) : anthropicReply([{ type: 'text', text: 'anthropic answers' }]),
  );
  const openai = await startOpenAIServer((req) => (isModelList(req) ? openaiModelsReply(['gpt-5.4-mini', 'text-embedding-3-small']) : openaiReply({ text: 'openai answers' })));
  cleanups.push(() => anthropic.close(), () => openai.close(), () => fs.rm(home, { recursive: true, force: true }));
  const env = { ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: anthropic.url, OPENAI_API_KEY: 'o', OPENAI_BASE_URL: openai.url };
  const resolved = resolveProvider({ flags: { provider: 'anthropic' }, env, cairnHome: home });
  const { provider, providerFor } = setUpProvider({ env, cairnHome: home, interactive: false, resolved });
  rig = await createRig({ columns: 120, rows: 40, provider, providerFor });
  rig.deps.models = createModelActions({ cairnHome: home, env, prices: builtinPriceTable });
  return { rig, home, anthropic, openai };
}

const prompts = (server: ScriptedServer<AnthropicRequestBody> | ScriptedServer<OpenAIRequestBody>): string[] =>
  server.requests.filter((r) => r.method === 'POST').map((r) => r.body.model);

async function openPicker(r: Rig): Promise<string> {
  await r.type('/model');
  await r.press(KEYS.enter);
  return r.waitFrame((f) => f.includes('openai') && f.includes('gpt-5.4-mini'));
}

describe('/model picker', () => {
  it('lists the providers’ models grouped, with context size and price per Mtok in/out and the current one marked; typing filters; Enter switches and the next request names the model', async () => {
    const { rig: r, anthropic } = await rigOnLoopback();
    const f = await openPicker(r);
    expect(f).toMatch(/› claude-sonnet-5-5 \(current\) +200k +\$2 \/ \$10/);
    expect(f).toMatch(/ claude-opus-5-5 +200k +\$4 \/ \$20/);
    expect(f).toMatch(/ gpt-5\.4-mini +400k +\$0\.75 \/ \$4\.50/);
    expect(f).not.toContain('text-embedding');
    expect(f.indexOf('anthropic\n')).toBeLessThan(f.indexOf('openai\n'));
    expect(f).toContain('Ctrl+S use and save as default');

    await r.type('opus');
    await r.waitFrame((fr) => fr.includes('filter: opus') && !fr.includes('claude-haiku-5-5'));
    await r.press(KEYS.enter);
    await r.waitFrame((fr) => !fr.includes('filter:') && fr.includes('Model set to claude-opus-5-5 (anthropic)'));
    expect(r.session.model).toBe('claude-opus-5-5');
    // The header shows it.
    expect(r.frame().split('\n').slice(0, 3).join('\n')).toContain('claude-opus-5-5');
    await r.type('hello');
    await r.press(KEYS.enter);
    await r.idle();
    expect(prompts(anthropic)).toEqual(['claude-opus-5-5']);
  });

  it('↓ moves to another provider’s model; Ctrl+S switches and saves it as the default in config.json, keeping the file’s other keys', async () => {
    const { rig: r, home, openai } = await rigOnLoopback(JSON.stringify({ archiveSessions: false, pricing: { x: { input: 1, output: 2 } } }));
    await openPicker(r);
    await r.type('gpt');
    await r.press(KEYS.down);
    await r.waitFrame((fr) => fr.includes('› gpt-5.4-mini'));
    await r.press(CTRL_S);
    const file = path.join(home, 'config.json');
    await r.waitFrame((fr) => fr.includes(`Saved gpt-5.4-mini (openai) as the default model in ${file}`));
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ archiveSessions: false, pricing: { x: { input: 1, output: 2 } }, defaultProvider: 'openai', model: 'gpt-5.4-mini' });
    expect([r.session.providerName, r.session.model]).toEqual(['openai', 'gpt-5.4-mini']);
    await r.type('hello');
    await r.press(KEYS.enter);
    await r.idle();
    expect(prompts(openai)).toEqual(['gpt-5.4-mini']);
  });

  it('bad JSON in config.json (broken after start-up): the list says so naming the file, saving says so too, nothing crashes and the file is untouched', async () => {
    const { rig: r, home } = await rigOnLoopback();
    const file = path.join(home, 'config.json');
    await fs.writeFile(file, '{ "model": ');
    await r.type('/model');
    await r.press(KEYS.enter);
    await r.waitFrame((fr) => fr.includes(`! ${file}: not valid JSON`));
    await r.press(CTRL_S);
    await r.waitFrame((fr) => !fr.includes('filter:') && fr.replace(/\s+/g, ' ').includes(`⚠ ${file}: not valid JSON (Unexpected end of JSON input); the default model was not saved: fix the file first`));
    expect(await fs.readFile(file, 'utf8')).toBe('{ "model": ');
  });

  it('←→ choose the thinking effort of a model that takes one; Esc closes without switching; /model NAME and Claude Code aliases still switch', async () => {
    const { rig: r, anthropic } = await rigOnLoopback();
    await openPicker(r);
    await r.waitFrame((fr) => fr.includes('effort: as started ←→'));
    await r.press(RIGHT, RIGHT, RIGHT);
    await r.waitFrame((fr) => fr.includes('effort: high ←→'));
    await r.press(KEYS.esc);
    await r.waitFrame((fr) => !fr.includes('filter:'));
    expect(r.session.model).toBe('claude-sonnet-5-5');
    await openPicker(r);
    await r.press(RIGHT, RIGHT);
    await r.press(KEYS.enter);
    await r.waitFrame((fr) => !fr.includes('filter:'));
    expect(r.session.modelChoice.effort).toBe('medium');
    await r.type('hi');
    await r.press(KEYS.enter);
    await r.idle();
    expect(anthropic.requests.find((q) => q.method === 'POST')?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });

    await r.type('/model haiku');
    await r.press(KEYS.enter);
    await r.waitFrame((fr) => fr.includes('Model set to claude-haiku-5-5 (anthropic)'));
    await r.type('/model claude-opus-5-5');
    await r.press(KEYS.enter);
    await r.waitFrame((fr) => fr.includes('Model set to claude-opus-5-5 (anthropic)'));
  });

  it('Alt+P opens the same list with the draft kept; the model chosen sets the context bar’s limit to its own window', async () => {
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-model-alt-p-'));
    const anthropic = await startAnthropicServer((req) =>
      isModelList(req) ? anthropicModelsReply([{ id: 'claude-small-1', max_input_tokens: 40_000 }, { id: 'claude-large-1', max_input_tokens: 1_000_000 }]) : anthropicReply([{ type: 'text', text: `answered by ${req.body.model}` }]),
    );
    cleanups.push(() => anthropic.close(), () => fs.rm(home, { recursive: true, force: true }));
    const env = { ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: anthropic.url };
    const { provider, providerFor } = setUpProvider({ env, cairnHome: home, interactive: false, resolved: resolveProvider({ flags: { provider: 'anthropic' }, env, cairnHome: home }) });
    rig = await createRig({ columns: 120, rows: 40, provider, providerFor });
    rig.deps.models = createModelActions({ cairnHome: home, env, prices: builtinPriceTable });
    const r = rig;
    await r.waitFrame((fr) => /ctx \S+ 0\/200k/.test(fr));
    await r.type('fix the parser');
    await r.press(ALT_P);
    let f = await r.waitFrame((fr) => fr.includes('claude-large-1'));
    expect(f).toMatch(/ claude-small-1 +40k/);
    expect(f).toMatch(/ claude-large-1 +1M/);
    await r.press(KEYS.down);
    await r.waitFrame((fr) => fr.includes('› claude-small-1'));
    await r.press(KEYS.enter);
    f = await r.waitFrame((fr) => fr.includes('Model set to claude-small-1 (anthropic)'));
    expect(r.store.getSnapshot().editor.text).toBe('fix the parser');
    expect(f).toContain('fix the parser');
    // Was 200k (the provider's preset window, at start).
    expect(f).toMatch(/ctx \S+ 0\/40k/);
    await r.press(KEYS.enter);
    await r.waitFrame((fr) => fr.includes('answered by claude-small-1'));
    expect(prompts(anthropic)).toEqual(['claude-small-1']);
    expect(JSON.stringify(anthropic.requests.at(-1)?.body.messages)).toContain('fix the parser');
  });

  it('offline: the picker opens and says only the offline model is available and how to configure a provider', async () => {
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-model-offline-'));
    cleanups.push(() => fs.rm(home, { recursive: true, force: true }));
    rig = await createRig({ columns: 120, rows: 30 });
    rig.deps.models = createModelActions({ cairnHome: home, env: {}, prices: builtinPriceTable });
    await rig.type('/model');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((fr) => fr.includes('Only the offline model is available'));
    expect(f).toMatch(new RegExp(`› ${rig.session.model} \\(current\\) +200k +\\$0 / \\$0`));
    expect(f.replace(/\n\s*/g, ' ')).toContain(`add a provider to ${path.join(home, 'config.json')}`);
    await rig.press(KEYS.enter);
    await rig.waitFrame((fr) => fr.includes(`Model: ${rig!.session.model} (offline), as before.`));
  });
});
