import type { ToolItem, TranscriptItem, TuiState } from './types.js';

// The transcript's item list: the two edits every reducer makes to it.

/** Appends an item with the next id. */
export function push(state: TuiState, make: (id: string) => TranscriptItem): TuiState {
  const item = make(`i${state.nextId}`);
  return { ...state, items: [...state.items, item], nextId: state.nextId + 1 };
}

/** Changes the newest card of a tool call; the state as it was when there is none. */
export function updateTool(state: TuiState, toolUseId: string, change: (t: ToolItem) => ToolItem): TuiState {
  // Tool events concern recent cards: search from the end.
  const i = state.items.findLastIndex((item) => item.kind === 'tool' && item.toolUseId === toolUseId);
  const item = state.items[i];
  if (item?.kind !== 'tool') return state;
  const items = state.items.slice();
  items[i] = change(item);
  return { ...state, items };
}
