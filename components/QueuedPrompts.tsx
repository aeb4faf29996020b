import { Box, Text } from 'ink';
import { memo } from 'react';
import type { TuiStore } from './store/create-store.js';
import type { TuiState } from './store/types.js';
import { useStoreSelector } from './store/use-store-selector.js';
import { clipLine, paint } from './theme/ansi.js';
import { useTheme } from './theme/use-theme.js';

const selectQueued = (s: TuiState): readonly string[] => s.queued;

export function queuedHeight(queued: readonly string[], maxRows: number): number {
  if (queued.length === 0 || maxRows <= 0) return 0;
  return Math.min(maxRows, queued.length);
}

/**
 * Prompts typed while the agent works; they run in order when the turn ends. Up on an empty
 * prompt takes the last one back to edit or drop; Esc stops the turn and returns them all.
 */
export const QueuedPrompts = memo(function QueuedPrompts({ store, width, maxRows }: { store: TuiStore; width: number; maxRows: number }) {
  const queued = useStoreSelector(store, selectQueued);
  const theme = useTheme(store);
  const rows = queuedHeight(queued, maxRows);
  if (rows === 0) return null;
  const overflow = queued.length > rows;
  const shown = queued.slice(0, overflow ? rows - 1 : rows);
  const lines = shown.map((q) => `queued: ${q.replace(/\s+/g, ' ')}`);
  if (overflow) lines.push(`+${queued.length - shown.length} more queued`);
  lines[lines.length - 1] += '  (↑ to edit)';
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {paint(theme, 'muted', clipLine(l, width))}
        </Text>
      ))}
    </Box>
  );
});
