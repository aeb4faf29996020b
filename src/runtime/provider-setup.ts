import { createOfflineProvider } from '../providers/offline.js';
import type { ModelProvider } from '../providers/provider.js';
import { createProvider, type ResolvedProvider } from '../providers/registry.js';
import { modelForAlias } from './session-model.js';

/** The provider chosen, and a way to make one for another model. */
export function setUpProvider(opts: {
  env: NodeJS.ProcessEnv;
  cairnHome: string;
  interactive: boolean;
  /** The provider chosen (session-facts.ts). */
  resolved: ResolvedProvider;
}): { resolved: ResolvedProvider; provider: ModelProvider; providerFor: (model: string) => ModelProvider } {
  const { resolved } = opts;
  // The offline model streams slowly enough to watch in the TUI, at once elsewhere.
  const deltaDelayMs = Number(opts.env['CAIRN_OFFLINE_DELAY_MS'] ?? (opts.interactive ? 8 : 0));
  const providerFor = (model: string): ModelProvider =>
    createProvider({ ...resolved, model: modelForAlias(model, resolved.name, opts.cairnHome) }, { createOffline: (m) => createOfflineProvider({ model: m, deltaDelayMs }) });
  return { resolved, provider: providerFor(resolved.model), providerFor };
}

/** CAIRN_COMPACT_THRESHOLD (tokens) overrides 80% of the model's context window. */
export function compactThreshold(env: NodeJS.ProcessEnv, contextWindow: number): number {
  const raw = env['CAIRN_COMPACT_THRESHOLD'];
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`CAIRN_COMPACT_THRESHOLD: expected a positive number of tokens, got "${raw}"`);
    return n;
  }
  return Math.floor(contextWindow * 0.8);
}
