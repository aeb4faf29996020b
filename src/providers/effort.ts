// --effort (Claude Code's flag): how hard the model thinks. On Anthropic's API it is the extended
// thinking budget; on OpenAI-compatible APIs the reasoning_effort of models that take one; elsewhere
// it is ignored, and the start-up notice says so.
import type { ReasoningEffort, ResolvedProvider } from './resolve.js';

export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORT_LEVELS)[number];

/** What the /model picker chooses besides the model: another configured provider, a thinking effort (absent: --effort's, if any). */
export interface ModelChoice {
  provider?: string;
  effort?: Effort;
  /** The model's context window when the caller knows it (the /model list's row, from the endpoint); default the provider's. */
  contextWindow?: number;
}

/** Extended-thinking budget in tokens per level (max is Claude Code's "ultrathink" budget). */
export const THINKING_BUDGET: Readonly<Record<Effort, number>> = { low: 1024, medium: 4096, high: 10_000, xhigh: 20_000, max: 31_999 };

// xhigh and max are sent as OpenAI's highest, high.
const REASONING_EFFORT: Readonly<Record<Effort, ReasoningEffort>> = { low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

/** Claude models before 3.7 (3.5 Sonnet/Haiku, the 3 family, 2.x, instant) have no extended thinking. */
function anthropicModelThinks(model: string): boolean {
  return !/claude-(instant|2|3-(?!7)|3\.(?!7))/i.test(model);
}

/** OpenAI's reasoning models (o1, o3, o4-mini, gpt-5..., gpt-oss), also behind a router's "openai/" prefix. */
function takesReasoningEffort(model: string): boolean {
  return /(^|\/)(o\d|gpt-5|gpt-oss)/i.test(model);
}

/** Whether --effort changes anything for this model (the /model picker offers effort only then). */
export function takesEffort(api: ResolvedProvider['api'], model: string): boolean {
  return api === 'anthropic' ? anthropicModelThinks(model) : api === 'openai' ? takesReasoningEffort(model) : false;
}

/** The provider selection with --effort applied to `resolved.model`, and a notice when it is ignored or lowered. */
export function withEffort(resolved: ResolvedProvider, effort: Effort | undefined): { resolved: ResolvedProvider; notice?: string } {
  if (effort === undefined) return { resolved };
  const ignored = (why: string) => ({ resolved, notice: `--effort ${effort} is ignored: ${why}` });
  switch (resolved.api) {
    case 'anthropic':
      if (!anthropicModelThinks(resolved.model)) return ignored(`${resolved.model} has no extended thinking`);
      return { resolved: { ...resolved, thinking: { enabled: true, budgetTokens: THINKING_BUDGET[effort] } } };
    case 'openai': {
      if (!takesReasoningEffort(resolved.model)) return ignored(`${resolved.name}'s model ${resolved.model} takes no reasoning effort`);
      const sent = REASONING_EFFORT[effort];
      return { resolved: { ...resolved, reasoningEffort: sent }, ...(sent !== effort ? { notice: `--effort ${effort} is sent as reasoning_effort ${sent}, the highest ${resolved.name} takes` } : {}) };
    }
    case 'offline':
      return ignored('the offline model does not think');
  }
}
