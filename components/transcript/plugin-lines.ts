import { bold, clipLine, inverse, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import type { PluginDialog } from '../store/types.js';

/** /plugin's rows: a title with the keys, one line per plugin and, under the cursor, what it holds. */
export function pluginLines(dialog: PluginDialog, width: number, theme: Theme, maxRows: number): string[] {
  const title = `${bold('Plugins')}${paint(theme, 'muted', '  ↑↓ select · Enter install / enable / disable · Esc close')}`;
  const status = dialog.status !== undefined ? [paint(theme, 'accent', dialog.status)] : [];
  const room = Math.max(1, maxRows - 2 - status.length);
  const first = Math.max(0, Math.min(dialog.index - room + 2, dialog.rows.length - room + 1));
  const rows: string[] = [];
  dialog.rows.forEach((row, i) => {
    if (i < first || rows.length >= room) return;
    const selected = i === dialog.index;
    const state = row.notAdded ? 'not added' : !row.installed ? 'available' : row.enabled ? 'enabled ' : 'disabled';
    const line = clipLine(`${selected ? '›' : ' '} [${state}] ${row.id}${row.version ? ` ${row.version}` : ''}  ${row.description}`, width);
    rows.push(selected ? inverse(line) : line);
    if (selected && rows.length < room) rows.push(paint(theme, 'muted', clipLine(`    ${row.contents}`, width)));
  });
  return [title, ...status, ...rows];
}
