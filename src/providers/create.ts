import { createAnthropicProvider } from './anthropic.js';
import type { AnthropicProviderOptions } from './anthropic.js';
import { createOpenAIProvider } from './openai.js';
import type { OpenAIProviderOptions } from './openai.js';
import type { ModelProvider } from './provider.js';
import type { ResolvedProvider } from './resolve.js';
import type { SleepFn } from './retry.js';

export interface CreateProviderDeps {
  /** The offline model lives with the lead; passed in so providers never import it. */
  createOffline: (model: string) => ModelProvider;
  maxRetries?: number;
  sleep?: SleepFn;
}

/** Builds the ModelProvider for a resolved selection. */
export function createProvider(resolved: ResolvedProvider, deps: CreateProviderDeps): ModelProvider {
  const common = {
    model: resolved.model,
    name: resolved.name,
    baseUrl: resolved.baseUrl,
    ...(resolved.apiKeyEnv !== undefined && { apiKeyEnv: resolved.apiKeyEnv }),
    ...(deps.maxRetries !== undefined && { maxRetries: deps.maxRetries }),
    ...(deps.sleep && { sleep: deps.sleep }),
  };
  switch (resolved.api) {
    case 'offline':
      return deps.createOffline(resolved.model);
    case 'anthropic': {
      const opts: AnthropicProviderOptions = { ...common, apiKey: resolved.apiKey ?? '' };
      if (resolved.thinking) opts.thinking = resolved.thinking;
      return createAnthropicProvider(opts);
    }
    case 'openai': {
      const opts: OpenAIProviderOptions = { ...common };
      if (resolved.apiKey !== undefined) opts.apiKey = resolved.apiKey;
      return createOpenAIProvider(opts);
    }
  }
}
