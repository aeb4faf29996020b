import { Text } from 'ink';
import { homedir } from 'node:os';
import { memo } from 'react';
import type { TuiStore } from './store/create-store.js';
import type { SessionInfo, TuiState } from './store/types.js';
import { shallowEqual, useStoreSelector } from './store/use-store-selector.js';
import { bold, clipLine, paint } from './theme/ansi.js';
import { useTheme } from './theme/use-theme.js';

const selectInfo = (s: TuiState): SessionInfo => s.info;

export function shortPath(path: string, home = homedir()): string {
  return home && path.startsWith(home) ? `~${path.slice(home.length)}` : path;
}

/** One line: model, provider, permission mode, workspace. */
export const Header = memo(function Header({ store, width }: { store: TuiStore; width: number }) {
  const info = useStoreSelector(store, selectInfo, shallowEqual);
  const theme = useTheme(store);
  const sep = paint(theme, 'muted', ' · ');
  const text = [bold(paint(theme, 'accent', 'cairn')), `${info.model}${paint(theme, 'muted', ` (${info.provider})`)}`, modeLabel(info.mode), paint(theme, 'muted', shortPath(info.cwd))].join(sep);
  return <Text wrap="truncate-end">{clipLine(text, width)}</Text>;
});

export function modeLabel(mode: SessionInfo['mode']): string {
  switch (mode) {
    case 'default':
      return 'default';
    case 'acceptEdits':
      return 'accept edits';
    case 'plan':
      return 'plan mode';
    case 'bypassPermissions':
      return 'bypass permissions';
    case 'dontAsk':
      return "don't ask";
  }
}
