// /model: with a name, switches to that model of the provider in use (Claude Code's aliases too:
// sonnet, opus, haiku); alone, opens the picker of every configured provider's models.
import { configPath } from '../../src/providers/config.js';
import { modelCatalog } from '../../src/providers/model-catalog.js';
import { saveDefaultModel } from '../../src/providers/save-default-model.js';
import type { PriceTable } from '../../src/pricing.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { AppContext, SlashCommand } from '../actions/app-context.js';
import { loadingModelDialog, withCatalog } from '../store/model-picker.js';
import type { ModelActions } from './model-actions.js';

export type { ModelActions };

export function createModelActions(opts: { cairnHome: string; env: Readonly<Record<string, string | undefined>>; prices: PriceTable; timeoutMs?: number }): ModelActions {
  return {
    configFile: configPath(opts.cairnHome),
    catalog: (current, signal) =>
      modelCatalog({ cairnHome: opts.cairnHome, env: opts.env, current, prices: opts.prices, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), ...(signal ? { signal } : {}) }),
    saveDefault: (provider, model) => saveDefaultModel({ cairnHome: opts.cairnHome, provider, model, env: opts.env }),
  };
}

let openings = 0;

/** Opens the picker at once (the list says it is loading) and fills it when the providers answer. */
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

export const modelCommand: SlashCommand = {
  name: 'model',
  description: 'Choose the model from a list (context size, prices), or switch to <name>',
  argHint: '[name]',
  async run(args, ctx) {
    if (!args) return openModelPicker(ctx);
    const current = `${ctx.session.model} (${ctx.session.providerName})`;
    if (args === ctx.session.model) return ctx.print(`Model: ${current}.`);
    if (ctx.session.busy) return ctx.print('A turn is running; switch models after it ends (or press Esc).', 'warning');
    try {
      if (!ctx.session.switchModel(args)) ctx.print(`Model: ${current}. To use ${args}, restart with: cairn --model ${args}`);
    } catch (error) {
      ctx.print(`Model: ${current}. ${errorMessage(error)}`, 'warning');
    }
  },
};
