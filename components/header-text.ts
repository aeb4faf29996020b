// The header row's text, without React or Ink (the early first frame draws it too).
import { homedir } from 'node:os';
import { modeLabel } from './mode-label.js';
import type { SessionInfo } from './store/types.js';
import { bold, clipLine, paint } from './theme/ansi.js';
import type { Theme } from './theme/theme.js';

export function shortPath(path: string, home = homedir()): string {
  return home && path.startsWith(home) ? `~${path.slice(home.length)}` : path;
}

/** One line: the session's name (if it has one), model, provider, permission mode, workspace. */
export function headerText(info: SessionInfo, theme: Theme, width: number): string {
  const sep = paint(theme, 'muted', ' · ');
  const text = [bold(paint(theme, 'accent', 'cairn')), ...(info.name !== undefined ? [bold(info.name)] : []), `${info.model}${paint(theme, 'muted', ` (${info.provider})`)}`, modeLabel(info.mode), paint(theme, 'muted', shortPath(info.cwd))].join(sep);
  return clipLine(text, width);
}
