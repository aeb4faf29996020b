import type { Key } from 'ink';
import type { AppContext } from '../actions/app-context.js';
import { openPluginDialog } from '../commands/plugin-command.js';
import type { PluginDialog } from '../store/types.js';
import { is } from './keymap.js';

/** /plugin's list: ↑↓ move, Enter installs or switches the plugin, Esc closes. */
export function pluginKey(input: string, key: Key, dialog: PluginDialog, deps: AppContext): void {
  const set = (next: PluginDialog): void => deps.store.dispatch({ type: 'dialog', dialog: next });
  const count = dialog.rows.length;
  if (is('back', input, key)) return deps.store.dispatch({ type: 'dialog', dialog: undefined });
  if (is('up', input, key)) return set({ ...dialog, index: (dialog.index - 1 + count) % count });
  if (is('down', input, key)) return set({ ...dialog, index: (dialog.index + 1) % count });
  if (is('confirm', input, key)) {
    const row = dialog.rows[dialog.index];
    if (!row || !deps.plugins) return;
    set({ ...dialog, status: `${row.installed ? (row.enabled ? 'Disabling' : 'Enabling') : 'Installing'} ${row.id}…` });
    void deps.plugins.toggle(row).then((status) => openPluginDialog(deps, status, dialog.index));
  }
}
