// What /model's picker can do with the providers (a type of its own, so the app context needs no command file).
import type { ModelCatalog } from '../../src/providers/model-catalog.js';
import type { SavedDefault } from '../../src/providers/save-default-model.js';

export interface ModelActions {
  /** $CAIRN_HOME/config.json. */
  readonly configFile: string;
  /** The configured providers' models, the current one first; never rejects. */
  catalog(current: { provider: string; model: string }, signal?: AbortSignal): Promise<ModelCatalog>;
  /** Saves the provider and model as the default; rejects with a ConfigError naming the file. */
  saveDefault(provider: string, model: string): Promise<SavedDefault>;
}
