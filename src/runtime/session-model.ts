import { agentModel, MODEL_ALIASES } from '../agents/agent-model.js';
import { loadProviderConfig } from '../providers/config.js';
import type { ResolvedProvider } from '../providers/resolve.js';

/**
 * A model written as Claude Code's alias (`model: "opus"` in settings, `--model sonnet`,
 * CAIRN_MODEL=haiku, `/model haiku`) as the provider's model of that tier, through the same mapper
 * agent definitions use, judged by the provider's default model. A provider with no such tier
 * (ollama, the offline model) gets the word as written; any other name is a model id, left alone.
 */
export function modelForAlias(model: string, providerName: string, cairnHome: string): string {
  const word = model.trim().toLowerCase();
  if (!(MODEL_ALIASES as readonly string[]).includes(word)) return model;
  const family = loadProviderConfig(cairnHome).providers[providerName]?.defaultModel;
  if (family === undefined) return model;
  const mapped = agentModel(word, family);
  return mapped.notice === undefined ? mapped.model : model;
}

/** The resolved provider with its model's alias mapped; modelSource says which alias it was. */
export function sessionModelAlias(resolved: ResolvedProvider, cairnHome: string): ResolvedProvider {
  const model = modelForAlias(resolved.model, resolved.name, cairnHome);
  return model === resolved.model ? resolved : { ...resolved, model, modelSource: `${resolved.modelSource}, alias ${resolved.model}` };
}
