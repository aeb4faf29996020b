import type { Key } from 'ink';
import type { ResumeDialog } from '../store/session-picker.js';
import { movePicker, pickerSelection, setPickerFilter } from '../store/session-picker.js';
import type { TuiState } from '../store/types.js';
import type { KeyDeps } from './dispatch.js';
import { copyCodeKey } from './copy-code-keys.js';
import { historySearchKey } from './history-search-keys.js';
import { mentionKey } from './mention-keys.js';
import { rewindKey } from './rewind-keys.js';
import { is, isAnswer, typedText } from './keymap.js';
import { saveMemoryNote } from './memory-note.js';
import { errorMessage } from '../../src/util/error-message.js';

/** An open dialog takes every key (after Ctrl+C and approvals); the editor's draft is left alone. */
export function handleDialogKey(input: string, key: Key, state: TuiState, deps: KeyDeps): void {
  const dialog = state.dialog;
  if (!dialog) return;
  if (dialog.kind === 'memory') return memoryKey(input, key, dialog.text, deps);
  if (dialog.kind === 'copyCode') return copyCodeKey(input, key, dialog, deps);
  if (dialog.kind === 'historySearch') return historySearchKey(input, key, dialog, deps);
  if (dialog.kind === 'mention') return mentionKey(input, key, dialog, deps);
  if (dialog.kind === 'rewind') return rewindKey(input, key, dialog, deps);
  pickerKey(input, key, dialog, deps);
}

function close(deps: KeyDeps): void {
  deps.store.dispatch({ type: 'dialog', dialog: undefined });
}

function memoryKey(input: string, key: Key, text: string, deps: KeyDeps): void {
  if (is('back', input, key)) {
    // Cancelled, not lost: the note goes back into the prompt to edit or send.
    close(deps);
    const draft = `# ${text}`;
    deps.store.dispatch({ type: 'editor', editor: { text: draft, cursor: draft.length, pastes: [] } });
    return;
  }
  if (isAnswer('memoryUser', input, key)) saveMemoryNote('user', text, deps);
  else if (isAnswer('memoryProject', input, key)) saveMemoryNote('project', text, deps);
}

function pickerKey(input: string, key: Key, dialog: ResumeDialog, deps: KeyDeps): void {
  const set = (next: ResumeDialog): void => deps.store.dispatch({ type: 'dialog', dialog: next });
  if (is('back', input, key)) return close(deps);
  if (is('up', input, key)) return set(movePicker(dialog, -1));
  if (is('down', input, key)) return set(movePicker(dialog, 1));
  if (is('confirm', input, key)) {
    const { session } = pickerSelection(dialog);
    if (!session) return;
    close(deps);
    resume(session.id, deps);
    return;
  }
  if (is('deleteBack', input, key)) return set(setPickerFilter(dialog, [...dialog.filter].slice(0, -1).join('')));
  const typed = typedText(input, key);
  if (typed !== undefined) set(setPickerFilter(dialog, dialog.filter + typed.replace(/[\r\n]+/g, ' ')));
}

/** Switches to a session, or says why not. */
export function resume(id: string, deps: Pick<KeyDeps, 'store' | 'sessions'>): void {
  const print = (message: string, level: 'warning' | 'error'): void => deps.store.dispatch({ type: 'notice', level, message });
  if (!deps.sessions) return print('Resuming is not available here.', 'warning');
  // Switching ends this session's screen: a running turn would be cut off without a word.
  if (deps.store.getSnapshot().busy) return print('A turn is running; press Esc to interrupt it, then resume.', 'warning');
  deps.sessions.switchTo(id).then(
    (message) => {
      if (message) print(message, 'warning');
    },
    (error: unknown) => print(`Could not resume ${id}: ${errorMessage(error)}`, 'error'),
  );
}
