import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelProvider, ModelStreamEvent } from '../../../src/providers/provider.js';
import { ConfigError, createProvider, listProviders, resolveProvider } from '../../../src/providers/registry.js';
import { anthropicReply, startAnthropicServer } from '../../helpers/anthropic-server.js';
import { openaiReply, startOpenAIServer } from '../../helpers/openai-server.js';

let home: string;
beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-providers-'));
});
afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

async function writeConfig(config: unknown): Promise<string> {
  const file = path.join(home, 'config.json');
  await fs.writeFile(file, typeof config === 'string' ? config : JSON.stringify(config));
  return file;
}

const resolve = (env: Record<string, string> = {}, flags: { provider?: string; model?: string } = {}) =>
  resolveProvider({ flags, env, cairnHome: home });

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveProvider', () => {
  it('falls back to offline when nothing is configured', () => {
    expect(resolve()).toMatchObject({ name: 'offline', api: 'offline', model: 'offline', source: expect.stringContaining('no API key') });
  });

  it('picks the first API key found, in the order anthropic, deepseek, openai', () => {
    expect(resolve({ OPENAI_API_KEY: 'o' })).toMatchObject({ name: 'openai', apiKey: 'o', model: 'gpt-5.4', source: 'OPENAI_API_KEY is set' });
    expect(resolve({ OPENAI_API_KEY: 'o', DEEPSEEK_API_KEY: 'd' })).toMatchObject({
      name: 'deepseek',
      api: 'anthropic',
      baseUrl: 'https://api.deepseek.com/anthropic',
      model: 'deepseek-chat',
    });
    expect(resolve({ OPENAI_API_KEY: 'o', DEEPSEEK_API_KEY: 'd', ANTHROPIC_API_KEY: 'a' })).toMatchObject({
      name: 'anthropic',
      apiKey: 'a',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-sonnet-5-5',
    });
    // An empty variable is not a key.
    expect(resolve({ ANTHROPIC_API_KEY: '' }).name).toBe('offline');
  });

  it('ranks flags over CAIRN_* over the config file over keys in the environment', async () => {
    const file = await writeConfig({ defaultProvider: 'openai', model: 'gpt-from-config' });
    const env = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', DEEPSEEK_API_KEY: 'd' };
    expect(resolve(env)).toMatchObject({ name: 'openai', model: 'gpt-from-config', source: `defaultProvider in ${file}` });
    expect(resolve({ ...env, CAIRN_PROVIDER: 'deepseek' })).toMatchObject({ name: 'deepseek', model: 'deepseek-chat', source: 'CAIRN_PROVIDER' });
    expect(resolve({ ...env, CAIRN_PROVIDER: 'deepseek', CAIRN_MODEL: 'deepseek-reasoner' })).toMatchObject({
      name: 'deepseek',
      model: 'deepseek-reasoner',
      modelSource: 'CAIRN_MODEL',
    });
    expect(resolve({ ...env, CAIRN_PROVIDER: 'deepseek', CAIRN_MODEL: 'x' }, { provider: 'anthropic', model: 'claude-opus-4-1' })).toMatchObject({
      name: 'anthropic',
      model: 'claude-opus-4-1',
      source: '--provider flag',
      modelSource: '--model flag',
    });
  });

  it('honours ANTHROPIC_BASE_URL and OPENAI_BASE_URL for their own presets only', () => {
    const env = { ANTHROPIC_API_KEY: 'a', DEEPSEEK_API_KEY: 'd', OPENAI_API_KEY: 'o', OPENROUTER_API_KEY: 'r', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1', OPENAI_BASE_URL: 'http://127.0.0.1:2/v1' };
    expect(resolve(env).baseUrl).toBe('http://127.0.0.1:1');
    expect(resolve(env, { provider: 'deepseek' }).baseUrl).toBe('https://api.deepseek.com/anthropic');
    expect(resolve(env, { provider: 'openai' }).baseUrl).toBe('http://127.0.0.1:2/v1');
    expect(resolve(env, { provider: 'openrouter' }).baseUrl).toBe('https://openrouter.ai/api/v1');
  });

  it('needs no key for local servers', () => {
    expect(resolve({}, { provider: 'ollama' })).toMatchObject({ name: 'ollama', api: 'openai', baseUrl: 'http://localhost:11434/v1' });
    expect(resolve({}, { provider: 'ollama' }).apiKey).toBeUndefined();
  });

  it('says which variable to set when an explicitly chosen provider has no key', () => {
    expect(configError(() => resolve({}, { provider: 'anthropic' })).message).toBe(
      "provider 'anthropic' (from --provider flag) needs an API key: set ANTHROPIC_API_KEY",
    );
    expect(configError(() => resolve({ CAIRN_PROVIDER: 'openrouter' })).message).toContain('set OPENROUTER_API_KEY');
  });

  it('rejects an unknown provider name and lists the known ones', () => {
    expect(configError(() => resolve({}, { provider: 'gemini' })).message).toMatch(/^unknown provider 'gemini' from --provider \(known: anthropic, openai, .*offline/);
  });

  it('adds and overrides providers from config.json', async () => {
    await writeConfig({
      defaultProvider: 'lab',
      thinking: { enabled: true, budgetTokens: 3000 },
      providers: {
        lab: { api: 'openai', baseUrl: 'http://gpu-box:9000/v1', apiKeyEnv: 'LAB_KEY', defaultModel: 'qwen3-coder', contextWindow: 65536 },
        ollama: { defaultModel: 'llama3.3' },
      },
      // Keys other parts of cairn own are left alone.
      permissions: { allow: ['Bash(ls)'] },
    });
    expect(resolve({ LAB_KEY: 'k' })).toMatchObject({
      name: 'lab',
      api: 'openai',
      baseUrl: 'http://gpu-box:9000/v1',
      apiKey: 'k',
      model: 'qwen3-coder',
      contextWindow: 65536,
      thinking: { enabled: true, budgetTokens: 3000 },
    });
    expect(resolve({ LAB_KEY: 'k' }, { provider: 'ollama' })).toMatchObject({ model: 'llama3.3', baseUrl: 'http://localhost:11434/v1' });
    expect(configError(() => resolve({})).message).toContain('set LAB_KEY');
  });

  it.each([
    ['not JSON', '{ "defaultProvider": ', /config\.json: not valid JSON/],
    ['a bad api', { providers: { lab: { api: 'gemini', baseUrl: 'http://x', defaultModel: 'm' } } }, /config\.json: providers\.lab\.api: /],
    ['a bad base URL', { providers: { lab: { api: 'openai', baseUrl: 'not a url', defaultModel: 'm' } } }, /config\.json: providers\.lab\.baseUrl: /],
    ['a typo in a field', { providers: { ollama: { baseURL: 'http://x' } } }, /config\.json: providers\.ollama: .*baseURL/],
    ['a missing baseUrl', { providers: { lab: { api: 'openai', defaultModel: 'm' } } }, /config\.json: providers\.lab\.baseUrl: required/],
    ['an unknown defaultProvider', { defaultProvider: 'nope' }, /config\.json: defaultProvider: unknown provider 'nope'/],
    ['a wrong type', { model: 42 }, /config\.json: model: /],
    ['a bad thinking budget', { thinking: { enabled: true, budgetTokens: 10 } }, /config\.json: thinking\.budgetTokens: /],
  ])('refuses to start with %s in config.json, naming file and field', async (_label, config, pattern) => {
    const file = await writeConfig(config);
    const error = configError(() => resolve({ ANTHROPIC_API_KEY: 'a' }));
    expect(error.message).toMatch(pattern);
    expect(error.message).toContain(file);
  });
});

describe('listProviders', () => {
  it('lists every provider with its key status and marks the winner and why', async () => {
    const file = await writeConfig({ providers: { lab: { api: 'openai', baseUrl: 'http://gpu-box:9000/v1', defaultModel: 'q' } } });
    const lines = listProviders({ flags: {}, env: { OPENAI_API_KEY: 'o' }, cairnHome: home });
    const text = lines.join('\n');
    expect(lines.find((l) => l.startsWith('*'))).toMatch(/^\* openai\s+openai\s+https:\/\/api\.openai\.com\/v1\s+gpt-5\.4\s+OPENAI_API_KEY set$/);
    expect(lines.find((l) => l.includes(' anthropic '))).toMatch(/ANTHROPIC_API_KEY not set$/);
    expect(lines.find((l) => l.includes('ollama'))).toMatch(/no key needed$/);
    expect(text).toContain('lab (config)');
    expect(text).toContain(`config: ${file}`);
    expect(lines.at(-1)).toBe('using: openai (OPENAI_API_KEY is set), model gpt-5.4 (default for openai), https://api.openai.com/v1');
  });

  it('reports a provider that cannot be used instead of failing', () => {
    const lines = listProviders({ flags: { provider: 'anthropic' }, env: {}, cairnHome: home });
    expect(lines.at(-1)).toBe("error: provider 'anthropic' (from --provider flag) needs an API key: set ANTHROPIC_API_KEY");
    expect(lines.some((l) => l.startsWith('*'))).toBe(false);
    expect(lines.at(-2)).toContain('(not found)');
  });
});

describe('createProvider', () => {
  async function firstMessage(provider: ModelProvider): Promise<ModelStreamEvent | undefined> {
    let last: ModelStreamEvent | undefined;
    for await (const e of provider.stream({
      model: provider.model,
      system: 's',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [],
      maxTokens: 100,
      signal: new AbortController().signal,
    })) {
      last = e;
    }
    return last;
  }

  it('hands the offline model to the injected factory', () => {
    const offline: ModelProvider = { name: 'offline', model: 'offline', offline: true, stream: async function* () {} };
    const asked: string[] = [];
    const provider = createProvider(resolve(), { createOffline: (model) => (asked.push(model), offline) });
    expect(provider).toBe(offline);
    expect(asked).toEqual(['offline']);
  });

  it('builds a working anthropic provider from ANTHROPIC_BASE_URL and the key in env', async () => {
    const server = await startAnthropicServer([anthropicReply([{ type: 'text', text: 'from anthropic' }])]);
    try {
      const resolved = resolve({ ANTHROPIC_API_KEY: 'sk-env', ANTHROPIC_BASE_URL: server.url }, { provider: 'anthropic', model: 'claude-x' });
      const provider = createProvider(resolved, { createOffline: () => { throw new Error('not offline'); } });
      expect(provider).toMatchObject({ name: 'anthropic', model: 'claude-x' });
      expect(await firstMessage(provider)).toMatchObject({ type: 'message', message: { content: [{ type: 'text', text: 'from anthropic' }] } });
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-env');
      expect(server.requests[0]?.body.model).toBe('claude-x');
    } finally {
      await server.close();
    }
  });

  it('builds a keyless openai-compatible provider from config', async () => {
    const server = await startOpenAIServer([openaiReply({ text: 'from local' })]);
    try {
      await writeConfig({ defaultProvider: 'local', providers: { local: { api: 'openai', baseUrl: server.url, defaultModel: 'tiny' } } });
      const provider = createProvider(resolve(), { createOffline: () => { throw new Error('not offline'); } });
      expect(provider).toMatchObject({ name: 'local', model: 'tiny' });
      expect(await firstMessage(provider)).toMatchObject({ type: 'message', message: { content: [{ type: 'text', text: 'from local' }] } });
      expect(server.requests[0]?.body.model).toBe('tiny');
    } finally {
      await server.close();
    }
  });
});
