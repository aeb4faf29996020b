import { withEffort, type Effort, type ModelChoice } from '../providers/effort.js';
import { withFallbackModel } from '../providers/fallback-model.js';
import { createOfflineProvider } from '../providers/offline.js';
import type { ModelProvider } from '../providers/provider.js';
import { createProvider, resolveProvider, type ResolvedProvider } from '../providers/registry.js';
import { modelForAlias } from './session-model.js';

/** A provider for a model: of the start-up provider, or (`choice.provider`) of another configured one; `choice.effort` overrides --effort. */
export type ProviderFor = (model: string, choice?: ModelChoice) => ModelProvider;

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
}): { resolved: ResolvedProvider; provider: ModelProvider; providerFor: ProviderFor; notices: string[] } {
  const { resolved } = opts;
  // The offline model streams slowly enough to watch in the TUI, at once elsewhere.
  const deltaDelayMs = Number(opts.env['CAIRN_OFFLINE_DELAY_MS'] ?? (opts.interactive ? 8 : 0));
  const plain = (model: string, choice: ModelChoice = {}): ModelProvider => {
    // Another configured provider (the /model picker): resolved as `--provider NAME` would be; throws ConfigError without its key.
    const base = choice.provider !== undefined && choice.provider !== resolved.name ? resolveProvider({ flags: { provider: choice.provider, model }, env: opts.env, cairnHome: opts.cairnHome }) : resolved;
    const effort = choice.effort ?? opts.effort;
    const window = choice.contextWindow !== undefined ? { contextWindow: choice.contextWindow } : {};
    return createProvider(withEffort({ ...base, model: modelForAlias(model, base.name, opts.cairnHome), ...window }, effort).resolved, {
      createOffline: (m, contextWindow) => createOfflineProvider({ model: m, deltaDelayMs, contextWindow }),
    });
  };
  const { fallbackModel } = opts;
  // The fallback model belongs to the start-up provider: it backs only that provider's models.
  const providerFor: ProviderFor = (model, choice = {}) =>
    fallbackModel === undefined || model === fallbackModel || (choice.provider !== undefined && choice.provider !== resolved.name)
      ? plain(model, choice)
      : withFallbackModel(plain(model, choice), () => plain(fallbackModel, { ...(choice.effort !== undefined ? { effort: choice.effort } : {}) }));
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
