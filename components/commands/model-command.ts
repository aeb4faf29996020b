// /model: with a name, switches to that model of the provider in use (Claude Code's aliases too:
// sonnet, opus, haiku); alone, opens the picker of every configured provider's models.
import { configPath } from '../../src/providers/config.js';
import { modelCatalog } from '../../src/providers/model-catalog.js';
import { saveDefaultModel } from '../../src/providers/save-default-model.js';
import type { PriceTable } from '../../src/pricing.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { SlashCommand } from '../actions/app-context.js';
import { openModelPicker } from '../actions/open-model-picker.js';
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
