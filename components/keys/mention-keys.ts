import type { Key } from 'ink';
import type { MentionDialog } from '../prompt/mention-complete.js';
import { refresh } from '../prompt/mention-complete.js';
import type { AppContext } from '../actions/app-context.js';
import { is, typedText } from './keymap.js';

/** Puts `text` into the draft at the cursor (after the `@`), and closes the completion. */
function insert(text: string, deps: AppContext): void {
  const { store } = deps;
  const editor = store.getSnapshot().editor;
  const next = editor.text.slice(0, editor.cursor) + text + editor.text.slice(editor.cursor);
  store.dispatch({ type: 'dialog', dialog: undefined });
  store.dispatch({ type: 'editor', editor: { ...editor, text: next, cursor: editor.cursor + text.length } });
}

/** Keys while completing an `@` mention: text narrows, ↑↓ choose, Tab/Enter take it, Esc keeps what was typed. */
export function mentionKey(input: string, key: Key, dialog: MentionDialog, deps: AppContext): void {
  const set = (next: MentionDialog): void => deps.store.dispatch({ type: 'dialog', dialog: next });
  if (is('back', input, key)) return insert(dialog.query, deps);
  if (is('up', input, key)) return set({ ...dialog, index: Math.max(0, dialog.index - 1) });
  if (is('down', input, key)) return set({ ...dialog, index: Math.min(Math.max(0, dialog.matches.length - 1), dialog.index + 1) });
  if (is('confirm', input, key) || is('complete', input, key)) {
    const chosen = dialog.matches[dialog.index];
    // A folder completes and stays open for what is inside; a file ends the mention.
    if (chosen === undefined) return insert(dialog.query, deps);
    if (chosen.endsWith('/') && is('complete', input, key)) {
      set({ ...dialog, query: chosen, index: 0 });
      return refresh(deps.store);
    }
    return insert(`${chosen} `, deps);
  }
  if (is('deleteBack', input, key)) {
    if (dialog.query === '') return deps.store.dispatch({ type: 'dialog', dialog: undefined });
    set({ ...dialog, query: [...dialog.query].slice(0, -1).join('') });
    return refresh(deps.store);
  }
  const typed = typedText(input, key);
  if (typed === undefined) return;
  // A space ends the path: what was typed is the mention.
  if (/\s/.test(typed)) return insert(`${dialog.query}${typed.replace(/[\r\n]+/g, ' ')}`, deps);
  set({ ...dialog, query: dialog.query + typed });
  refresh(deps.store);
}
