import type { Key } from 'ink';
import type { ResumeDialog } from '../store/session-picker.js';
import { movePicker, pickerSelection, setPickerFilter } from '../store/session-picker.js';
import type { TuiState } from '../store/types.js';
import type { AppContext } from '../actions/app-context.js';
import { copyCodeKey } from './copy-code-keys.js';
import { historySearchKey } from './history-search-keys.js';
import { mentionKey } from './mention-keys.js';
import { rewindKey } from './rewind-keys.js';
import { pluginKey } from './plugin-keys.js';
import { modelPickerKey } from './model-picker-keys.js';
import { dismissSideQuestion } from '../actions/side-question.js';
import { is, isAnswer, typedText } from './keymap.js';
import { saveMemoryNote } from '../actions/memory-note.js';
import { resume } from '../actions/resume.js';

/** An open dialog takes every key (after Ctrl+C and approvals); the editor's draft is left alone. */
export function handleDialogKey(input: string, key: Key, state: TuiState, deps: AppContext): void {
  const dialog = state.dialog;
  if (!dialog) return;
  if (dialog.kind === 'memory') return memoryKey(input, key, dialog.text, deps);
  if (dialog.kind === 'copyCode') return copyCodeKey(input, key, dialog, deps);
  if (dialog.kind === 'historySearch') return historySearchKey(input, key, dialog, deps);
  if (dialog.kind === 'mention') return mentionKey(input, key, dialog, deps);
  if (dialog.kind === 'rewind') return rewindKey(input, key, dialog, deps);
  if (dialog.kind === 'plugins') return pluginKey(input, key, dialog, deps);
  if (dialog.kind === 'model') return modelPickerKey(input, key, dialog, deps);
  if (dialog.kind === 'btw') {
    if (is('back', input, key) || is('confirm', input, key)) dismissSideQuestion(deps);
    return;
  }
  pickerKey(input, key, dialog, deps);
}

function close(deps: AppContext): void {
  deps.store.dispatch({ type: 'dialog', dialog: undefined });
}

function memoryKey(input: string, key: Key, text: string, deps: AppContext): void {
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

function pickerKey(input: string, key: Key, dialog: ResumeDialog, deps: AppContext): void {
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
