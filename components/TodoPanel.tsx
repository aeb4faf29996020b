import { Box, Text } from 'ink';
import { memo } from 'react';
import { todoLines } from './transcript/todo-lines.js';
import type { TuiStore } from './store/create-store.js';
import type { TuiState } from './store/types.js';
import { useStoreSelector } from './store/use-store-selector.js';
import { useTheme } from './theme/use-theme.js';

const selectTodos = (s: TuiState): TuiState['todos'] => s.todos;

/** The model's todo list, pinned above the prompt box while it has open items. */
export const TodoPanel = memo(function TodoPanel({ store, width, maxRows }: { store: TuiStore; width: number; maxRows: number }) {
  const todos = useStoreSelector(store, selectTodos);
  const theme = useTheme(store);
  const lines = todoLines(todos, width, theme, maxRows);
  if (lines.length === 0) return null;
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {l}
        </Text>
      ))}
    </Box>
  );
});
