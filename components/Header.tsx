import { Text } from 'ink';
import { memo } from 'react';
import { headerText } from './header-text.js';
import type { TuiStore } from './store/create-store.js';
import type { SessionInfo, TuiState } from './store/types.js';
import { shallowEqual, useStoreSelector } from './store/use-store-selector.js';
import { useTheme } from './theme/use-theme.js';

export { modeLabel } from './mode-label.js';
export { shortPath } from './header-text.js';

const selectInfo = (s: TuiState): SessionInfo => s.info;

/** One line: model, provider, permission mode, workspace. */
export const Header = memo(function Header({ store, width }: { store: TuiStore; width: number }) {
  const info = useStoreSelector(store, selectInfo, shallowEqual);
  const theme = useTheme(store);
  return <Text wrap="truncate-end">{headerText(info, theme, width)}</Text>;
});
