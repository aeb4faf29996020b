export type ProviderApi = 'anthropic' | 'openai' | 'offline';

// Defaults are current models: the bundled SDKs warn on every request naming a model near its end
// of life (test/src/providers/presets.test.ts sends one request per preset to check). Checked
// against @anthropic-ai/sdk 1.14 and openai 6.30 on 2026-11-30.
export interface ProviderPreset {
  api: ProviderApi;
  baseUrl: string;
  /** Env var holding the key; absent for servers that need none. */
  apiKeyEnv?: string;
  defaultModel: string;
  contextWindow: number;
}

export const PROVIDER_PRESETS: Readonly<Record<string, ProviderPreset>> = {
  anthropic: {
    api: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    defaultModel: 'claude-sonnet-5-5',
    contextWindow: 200_000,
  },
  openai: {
    api: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    defaultModel: 'gpt-5.4',
    contextWindow: 400_000,
  },
  deepseek: {
    api: 'anthropic',
    baseUrl: 'https://api.deepseek.com/anthropic',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    defaultModel: 'deepseek-chat',
    contextWindow: 128_000,
  },
  openrouter: {
    api: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    defaultModel: 'anthropic/claude-sonnet-5.5',
    contextWindow: 200_000,
  },
  ollama: {
    api: 'openai',
    baseUrl: 'http://localhost:11434/v1',
    defaultModel: 'qwen2.5-coder',
    contextWindow: 32_768,
  },
  vllm: {
    api: 'openai',
    baseUrl: 'http://localhost:8000/v1',
    defaultModel: 'default',
    contextWindow: 32_768,
  },
  offline: {
    api: 'offline',
    baseUrl: '',
    defaultModel: 'offline',
    contextWindow: 200_000,
  },
};

/** Base-URL overrides from the environment, each for the one preset it names. */
export const BASE_URL_ENV: Readonly<Record<string, string>> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
};

/** Which key in the environment picks a provider when nothing else does, in this order. */
export const KEY_DETECTION_ORDER: readonly string[] = ['anthropic', 'deepseek', 'openai'];
