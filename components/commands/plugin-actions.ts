// What /plugin can do with the plugins (a type of its own, so the app context needs no command file).
import type { PluginDialog } from '../store/types.js';

export type PluginRow = PluginDialog['rows'][number];

export interface PluginActions {
  rows(): Promise<PluginRow[]>;
  /** Installs (when not installed) or switches the plugin; resolves what happened, for the dialog. */
  toggle(row: PluginRow): Promise<string>;
}
