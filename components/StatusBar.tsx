import { Text } from 'ink';
import { memo } from 'react';
import { useTicker } from './app/use-ticker.js';
import { selectStatus, STATUS_TICK_MS, statusBarText, statusTicks } from './status-bar-text.js';
import type { TuiStore } from './store/create-store.js';
import { shallowEqual, useStoreSelector } from './store/use-store-selector.js';
import { useTheme } from './theme/use-theme.js';

export { activityText, backgroundText, costText, selectStatus, STATUS_TICK_MS, statusBarText, statusTicks, type StatusView } from './status-bar-text.js';
export { formatTokens } from './transcript/format-tokens.js';

/** The status bar through Ink (no frame writer): the text the screen painter draws. */
export const StatusBar = memo(function StatusBar({ store, width }: { store: TuiStore; width: number }) {
  const v = useStoreSelector(store, selectStatus, shallowEqual);
  const theme = useTheme(store);
  useTicker(statusTicks(v), STATUS_TICK_MS);
  return <Text wrap="truncate-end">{statusBarText(v, theme, width, Date.now())}</Text>;
});
