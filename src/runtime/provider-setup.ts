import { withEffort, type Effort } from '../providers/effort.js';
import { withFallbackModel } from '../providers/fallback-model.js';
import { createOfflineProvider } from '../providers/offline.js';
import type { ModelProvider } from '../providers/provider.js';
import { createProvider, type ResolvedProvider } from '../providers/registry.js';
import { modelForAlias } from './session-model.js';

/**
 * The provider chosen, and a way to make one for another model; each with --effort applied to its
 * model and --fallback-model behind it. `notices`: what start-up says about them.
 */
export function setUpProvider(opts: {
  env: NodeJS.ProcessEnv;
  cairnHome: string;
  interactive: boolean;
  /** The provider chosen (session-facts.ts). */
  resolved: ResolvedProvider;
  effort?: Effort;
  fallbackModel?: string;
}): { resolved: ResolvedProvider; provider: ModelProvider; providerFor: (model: string) => ModelProvider; notices: string[] } {
  const { resolved } = opts;
  // The offline model streams slowly enough to watch in the TUI, at once elsewhere.
  const deltaDelayMs = Number(opts.env['CAIRN_OFFLINE_DELAY_MS'] ?? (opts.interactive ? 8 : 0));
  const plain = (model: string): ModelProvider =>
    createProvider(withEffort({ ...resolved, model: modelForAlias(model, resolved.name, opts.cairnHome) }, opts.effort).resolved, {
      createOffline: (m) => createOfflineProvider({ model: m, deltaDelayMs }),
    });
  const { fallbackModel } = opts;
  const providerFor = (model: string): ModelProvider =>
    fallbackModel === undefined || model === fallbackModel ? plain(model) : withFallbackModel(plain(model), () => plain(fallbackModel));
  const notice = withEffort(resolved, opts.effort).notice;
  return { resolved, provider: providerFor(resolved.model), providerFor, notices: notice !== undefined ? [notice] : [] };
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
