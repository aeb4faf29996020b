import { memo } from 'react';
import { PinnedLines } from './PinnedLines.js';
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
  return <PinnedLines lines={todoLines(todos, width, theme, maxRows)} width={width} />;
});
