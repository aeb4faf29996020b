import type { AnthropicProviderOptions } from './anthropic.js';
import type { OpenAIProviderOptions } from './openai.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from './provider.js';
import type { ResolvedProvider } from './resolve.js';
import type { SleepFn } from './retry.js';

export interface CreateProviderDeps {
  /** The offline model lives with the lead; passed in so providers never import it. */
  createOffline: (model: string, contextWindow: number) => ModelProvider;
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
    ...(resolved.streamIdleTimeoutMs !== undefined && { streamIdleTimeoutMs: resolved.streamIdleTimeoutMs }),
  };
  switch (resolved.api) {
    case 'offline':
      return deps.createOffline(resolved.model, resolved.contextWindow);
    case 'anthropic': {
      const opts: AnthropicProviderOptions = { ...common, apiKey: resolved.apiKey ?? '' };
      if (resolved.thinking) opts.thinking = resolved.thinking;
      return lazyProvider(resolved, 'anthropic', async () => (await PROVIDER_MODULES.anthropic()).createAnthropicProvider(opts));
    }
    case 'openai': {
      const opts: OpenAIProviderOptions = { ...common };
      if (resolved.apiKey !== undefined) opts.apiKey = resolved.apiKey;
      if (resolved.reasoningEffort) opts.reasoningEffort = resolved.reasoningEffort;
      return lazyProvider(resolved, 'openai', async () => (await PROVIDER_MODULES.openai()).createOpenAIProvider(opts));
    }
  }
}

/**
 * Imports the SDK module a provider's first call needs, ahead of that call: the TUI does it once its
 * first frame is drawn (finishStartup), so the first prompt does not wait for the import. A module
 * that fails to load is reported by the call that needs it (the import is tried again there).
 */
export async function loadProviderModule(api: ResolvedProvider['api'] | undefined): Promise<void> {
  if (api === 'anthropic' || api === 'openai') await PROVIDER_MODULES[api]();
}

/** The provider modules (and their SDKs) by wire protocol, imported when first needed. */
const PROVIDER_MODULES = {
  anthropic: () => import('./anthropic.js'),
  openai: () => import('./openai.js'),
};

/**
 * The SDKs cost ~100-200 ms to import: they load on the first model call, not at start-up
 * (`--version`, `--help` and the first frame never pay for them). One client per provider, as before.
 */
function lazyProvider(resolved: ResolvedProvider, api: 'anthropic' | 'openai', load: () => Promise<ModelProvider>): ModelProvider {
  let real: Promise<ModelProvider> | undefined;
  return {
    name: resolved.name,
    model: resolved.model,
    api,
    contextWindow: resolved.contextWindow,
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
      real ??= load();
      yield* (await real).stream(request);
    },
  };
}
