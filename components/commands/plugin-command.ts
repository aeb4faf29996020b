// /plugin: the installed plugins and the added marketplaces' others, each with what it holds; Enter
// installs one or turns it on or off (the user's settings), and its commands join the palette at once.
import { pluginCatalog } from '../../src/plugins/plugin-catalog.js';
import { describeContents } from '../../src/plugins/plugin-contents.js';
import { addNamedMarketplace, installPlugin } from '../../src/plugins/plugin-install.js';
import { setPluginEnabled } from '../../src/plugins/plugin-switch.js';
import { errorMessage } from '../../src/util/error-message.js';
export type { PluginActions, PluginRow } from './plugin-actions.js';
import type { AppContext, SlashCommand } from '../actions/app-context.js';
import type { PluginActions } from './plugin-actions.js';


export interface PluginActionsOptions {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  trusted: () => Promise<boolean>;
  /** After a switch: the skills, commands and hooks are found again. */
  reload(): Promise<void>;
}

export function createPluginActions(opts: PluginActionsOptions): PluginActions {
  return {
    async rows() {
      const catalog = await pluginCatalog({ cwd: opts.cwd, cairnHome: opts.cairnHome, env: opts.env, trusted: await opts.trusted() });
      return catalog.entries.map((e) => ({
        id: e.id,
        ...(e.version !== undefined ? { version: e.version } : {}),
        description: e.description ?? '',
        contents: e.notAdded
          ? `marketplace ${e.marketplace} is named in ${e.notAdded.file} and not added yet: Enter ${e.name ? 'adds it and installs this plugin' : `adds it (from ${e.notAdded.source}) and lists its plugins`}`
          : e.contents
            ? describeContents(e.contents)
            : e.problems[0] ?? 'not installed',
        installed: e.installed !== undefined,
        enabled: e.enabled,
        ...(e.notAdded ? { notAdded: true } : {}),
      }));
    },
    async toggle(row) {
      try {
        if (row.notAdded && row.id.startsWith('@')) {
          const market = await addNamedMarketplace(row.id.slice(1), opts);
          await opts.reload();
          return `Added marketplace ${market.name} (${market.plugins.length} plugin${market.plugins.length === 1 ? '' : 's'}); choose one to install.`;
        }
        if (!row.installed) {
          // cwd: a marketplace the settings name (extraKnownMarketplaces) is added first, a folder's own only once trusted.
          const done = await installPlugin(row.id, { cairnHome: opts.cairnHome, env: opts.env, cwd: opts.cwd });
          await opts.reload();
          return `Installed and enabled ${done.id} ${done.version}.`;
        }
        await setPluginEnabled(opts.cairnHome, row.id, !row.enabled);
        await opts.reload();
        return `${row.enabled ? 'Disabled' : 'Enabled'} ${row.id}; its MCP servers follow in the next session.`;
      } catch (error) {
        return `${row.id}: ${errorMessage(error)}`;
      }
    },
  };
}

/** Opens the list (or says there is nothing to list). */
export async function openPluginDialog(ctx: AppContext, status?: string, index = 0): Promise<void> {
  if (!ctx.plugins) return ctx.print('Plugins are not available here.', 'warning');
  const rows = await ctx.plugins.rows();
  if (rows.length === 0) return ctx.print('No plugin is installed and no marketplace added. Add one with: cairn plugin marketplace add <path|git URL|owner/repo>');
  ctx.store.dispatch({ type: 'dialog', dialog: { kind: 'plugins', rows, index: Math.min(index, rows.length - 1), ...(status !== undefined ? { status } : {}) } });
}

export function pluginCommand(): SlashCommand {
  return {
    name: 'plugin',
    aliases: ['plugins'],
    description: 'Plugins: browse, install, enable or disable (Claude Code plugins and marketplaces)',
    async run(_args, ctx) {
      await openPluginDialog(ctx);
    },
  };
}
