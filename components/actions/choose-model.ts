// The /model picker's choice: switch the session to the model (from the next turn) and, when asked,
// save it as the default in config.json.
import type { Effort } from '../../src/providers/effort.js';
import type { ModelRow } from '../../src/providers/model-catalog.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { ModelDialog } from '../store/types.js';
import type { AppContext } from './app-context.js';

export async function chooseModel(row: ModelRow, dialog: ModelDialog, opts: { save: boolean }, deps: AppContext): Promise<void> {
  const { session, store } = deps;
  const stay = (status: string): void => store.dispatch({ type: 'dialog', dialog: { ...dialog, status } });
  if (session.busy) return stay('A turn is running: choose after it ends (Esc closes this list; Esc again stops the turn).');
  const effort: Effort | undefined = row.effort ? dialog.effort : undefined;
  const unchanged = row.provider === session.providerName && row.model === session.model && effort === session.modelChoice.effort;
  if (!unchanged) {
    try {
      // The row's window (the endpoint's list may give one per model) becomes the context bar's limit and the compaction threshold's base.
      const choice = { provider: row.provider, ...(effort !== undefined ? { effort } : {}), ...(row.contextWindow !== undefined ? { contextWindow: row.contextWindow } : {}) };
      if (!session.switchModel(row.model, choice)) return stay('This session cannot switch models.');
    } catch (error) {
      return stay(errorMessage(error));
    }
  }
  store.dispatch({ type: 'dialog', dialog: undefined });
  if (unchanged && !opts.save) deps.print(`Model: ${row.model} (${row.provider}), as before.`);
  if (!opts.save || !deps.models) return;
  try {
    const saved = await deps.models.saveDefault(row.provider, row.model);
    const still = saved.overriddenBy.length > 0 ? ` (${saved.overriddenBy.join(' and ')} in this environment still choose${saved.overriddenBy.length === 1 ? 's' : ''} over it)` : '';
    deps.print(`Saved ${row.model} (${row.provider}) as the default model in ${saved.file}${still}.`);
  } catch (error) {
    deps.print(errorMessage(error), 'warning');
  }
}
