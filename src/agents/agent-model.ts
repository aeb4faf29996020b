/** Claude Code's model aliases in agent definitions. `inherit` is dropped at load (the session's model). */
export const MODEL_ALIASES = ['opus', 'sonnet', 'haiku', 'fable'] as const;
type Alias = (typeof MODEL_ALIASES)[number];

// Each alias as a model of the session's family, judged by the session's model id: the provider
// presets carry one default model, not tiers. Checked against src/pricing.ts on 2026-11-30.
const FAMILIES: readonly { family: RegExp; models: Partial<Record<Alias, string>> }[] = [
  { family: /^claude-/, models: { opus: 'claude-opus-5-5', sonnet: 'claude-sonnet-5-5', haiku: 'claude-haiku-5-5', fable: 'claude-fable-5-1' } },
  { family: /^anthropic\/claude-/, models: { opus: 'anthropic/claude-opus-5.5', sonnet: 'anthropic/claude-sonnet-5.5', haiku: 'anthropic/claude-haiku-5.5' } },
  { family: /^gpt-/, models: { opus: 'gpt-5.5', sonnet: 'gpt-5.4', haiku: 'gpt-5.4-mini' } },
  { family: /^openai\/gpt-/, models: { opus: 'openai/gpt-5.5', sonnet: 'openai/gpt-5.4', haiku: 'openai/gpt-5.4-mini' } },
];

/**
 * The model an agent runs on: an alias becomes the session provider's model of that tier
 * (`sonnet` on OpenAI is gpt-5.4); a full model id is used as written; no model, an alias the
 * provider has no match for, or an unknown one-word alias, the session's model (with a notice
 * for the last two).
 */
export function agentModel(requested: string | undefined, sessionModel: string): { model: string; notice?: string } {
  if (requested === undefined) return { model: sessionModel };
  const word = requested.trim().toLowerCase();
  if ((MODEL_ALIASES as readonly string[]).includes(word)) {
    const models = FAMILIES.find((f) => f.family.test(sessionModel))?.models;
    const model = models?.[word as Alias];
    if (model) return { model };
    return { model: sessionModel, notice: `model "${requested}": the session's model ${sessionModel} has no ${word} tier here; using ${sessionModel}` };
  }
  // A bare word is an alias (Claude Code's `default`, a typo of `sonnet`); ids have digits, dashes or slashes.
  if (/^[a-z]+$/.test(word)) return { model: sessionModel, notice: `model "${requested}" is not a model alias cairn knows (${MODEL_ALIASES.join(', ')}, inherit); using the session's model ${sessionModel}` };
  return { model: requested.trim() };
}
