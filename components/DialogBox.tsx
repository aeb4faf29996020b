import { Box, Text } from 'ink';
import { memo } from 'react';
import { dialogLines } from './transcript/dialog-lines.js';
import type { TuiStore } from './store/create-store.js';
import type { TuiState } from './store/types.js';
import { useStoreSelector } from './store/use-store-selector.js';
import { useTheme } from './theme/use-theme.js';

const selectDialog = (s: TuiState): TuiState['dialog'] => s.dialog;

/** The open dialog (the `#` memory question, the resume picker) above the prompt box. */
export const DialogBox = memo(function DialogBox({ store, width, maxRows }: { store: TuiStore; width: number; maxRows: number }) {
  const dialog = useStoreSelector(store, selectDialog);
  const theme = useTheme(store);
  if (!dialog || maxRows <= 0) return null;
  const lines = dialogLines(dialog, width, theme, maxRows);
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line === '' ? ' ' : line}
        </Text>
      ))}
    </Box>
  );
});
