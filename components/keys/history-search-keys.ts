import type { Key } from 'ink';
import type { HistorySearch } from '../prompt/history-search.js';
import { historyMatches, openHistorySearch, selectedMatch } from '../prompt/history-search.js';
import type { AppContext } from '../actions/app-context.js';
import { is, typedText } from './keymap.js';

/** Ctrl+R at the prompt: the search opens over the prompt box; the draft stays until one is taken. */
export function startHistorySearch(deps: AppContext): void {
  deps.store.dispatch({ type: 'dialog', dialog: openHistorySearch(deps.history()) });
}

/** Keys while searching: text narrows, Ctrl+R/Up older, Down newer, Enter takes, Esc cancels. */
export function historySearchKey(input: string, key: Key, search: HistorySearch, deps: AppContext): void {
  const { store } = deps;
  const set = (next: HistorySearch): void => store.dispatch({ type: 'dialog', dialog: next });
  const count = historyMatches(search).length;
  if (is('back', input, key)) return store.dispatch({ type: 'dialog', dialog: undefined });
  if (is('historySearch', input, key) || is('up', input, key)) return set({ ...search, index: Math.min(Math.max(0, count - 1), search.index + 1) });
  if (is('down', input, key)) return set({ ...search, index: Math.max(0, search.index - 1) });
  if (is('confirm', input, key)) {
    const chosen = selectedMatch(search);
    store.dispatch({ type: 'dialog', dialog: undefined });
    // Taken into the prompt to edit or send, as a shell's reverse search does.
    if (chosen !== undefined) store.dispatch({ type: 'editor', editor: { text: chosen, cursor: chosen.length, pastes: [] } });
    return;
  }
  if (is('deleteBack', input, key)) return set({ ...search, query: [...search.query].slice(0, -1).join(''), index: 0 });
  const text = typedText(input, key);
  if (text !== undefined) set({ ...search, query: search.query + text.replace(/[\r\n]+/g, ' '), index: 0 });
}
