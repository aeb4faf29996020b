// The model picker (/model alone, Alt+P): open at once, saying it is loading, and filled when the
// providers answer. The prompt's draft is left as it is (Claude Code keeps it too).
import { loadingModelDialog, withCatalog } from '../store/model-picker.js';
import type { AppContext } from './app-context.js';

let openings = 0;

export async function openModelPicker(ctx: AppContext): Promise<void> {
  const { models, session, store } = ctx;
  if (!models) return ctx.print(`Model: ${session.model} (${session.providerName}). Switch with /model <name>.`);
  const opened = ++openings;
  const current = { provider: session.providerName, model: session.model };
  store.dispatch({ type: 'dialog', dialog: loadingModelDialog(opened, current, session.modelChoice.effort, models.configFile) });
  const catalog = await models.catalog(current);
  const dialog = store.getSnapshot().dialog;
  // Closed, or closed and opened again, while the providers answered: this list is no one's.
  if (dialog?.kind !== 'model' || dialog.opened !== opened) return;
  store.dispatch({ type: 'dialog', dialog: withCatalog(dialog, catalog) });
}
