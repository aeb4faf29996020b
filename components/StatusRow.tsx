import { Box, Text } from 'ink';
import { memo, useEffect } from 'react';
import type { Toast } from './store/background-state.js';
import type { TuiStore } from './store/create-store.js';
import type { TuiState } from './store/types.js';
import { useStoreSelector } from './store/use-store-selector.js';
import { StatusBar } from './StatusBar.js';
import { selectStatus, statusBarText } from './status-bar-text.js';
import type { Theme } from './theme/theme.js';
import { statusLineFor } from './app/status-line.js';
import { useStatusLineText } from './app/use-status-line.js';
import { watchToastExpiry } from './app/toast-expiry.js';
import { clipLine, paint, textWidth } from './theme/ansi.js';
import { useTheme } from './theme/use-theme.js';

const selectToasts = (s: TuiState): TuiState['toasts'] => s.toasts;
const TOAST_COLOR = { info: 'accent', warning: 'warning', error: 'error' } as const;

/** How wide the toast at the right end of the status row is (0 when there is none). */
export function toastWidth(toast: Toast | undefined, width: number): number {
  if (!toast) return 0;
  return Math.min(textWidth(toast.text) + 2, Math.floor(width / 2));
}

/**
 * The status row as one finished line (what the screen painter draws): the bar, or the user's
 * statusLine command's output, and the latest toast at the right end.
 */
export function statusRowLine(state: TuiState, theme: Theme, width: number, now: number, custom: string | undefined): string {
  const toast = state.toasts[state.toasts.length - 1];
  const side = toastWidth(toast, width);
  const main = custom !== undefined ? clipLine(custom, width - side) : statusBarText(selectStatus(state), theme, width - side, now);
  if (!toast) return main;
  const right = clipLine(` ${toast.text}`, side);
  const gap = Math.max(0, width - textWidth(main) - textWidth(right));
  return `${main}${' '.repeat(gap)}${paint(theme, TOAST_COLOR[toast.level], right)}`;
}

/**
 * The bottom row: the status bar, and at its right end the latest toast for a few seconds. The
 * toast is drawn, never focused: keys keep going to the prompt and the draft is untouched.
 */
export const StatusRow = memo(function StatusRow({ store, width }: { store: TuiStore; width: number }) {
  const toasts = useStoreSelector(store, selectToasts);
  const theme = useTheme(store);
  useEffect(() => watchToastExpiry(store), [store]);
  const custom = useStatusLineText(statusLineFor(store));
  const toast = toasts[toasts.length - 1];
  const side = toastWidth(toast, width);
  return (
    <Box width={width}>
      {custom !== undefined ? <Text wrap="truncate-end">{clipLine(custom, width - side)}</Text> : <StatusBar store={store} width={width - side} />}
      {toast ? (
        <Box flexGrow={1} justifyContent="flex-end">
          <Text wrap="truncate-end">{paint(theme, TOAST_COLOR[toast.level], clipLine(` ${toast.text}`, side))}</Text>
        </Box>
      ) : null}
    </Box>
  );
});
