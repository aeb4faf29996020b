import type { Key } from 'ink';
import type { AppContext } from '../actions/app-context.js';
import { chooseModel } from '../actions/choose-model.js';
import { cycleEffort, modelSelection, moveModelPicker, setModelFilter } from '../store/model-picker.js';
import type { ModelDialog } from '../store/types.js';
import { is, typedText } from './keymap.js';

/** /model's list: type to filter, ↑↓ move, ←→ effort, Enter switches, Ctrl+S switches and saves it as the default, Esc closes. */
export function modelPickerKey(input: string, key: Key, dialog: ModelDialog, deps: AppContext): void {
  const set = (next: ModelDialog): void => deps.store.dispatch({ type: 'dialog', dialog: next });
  if (is('back', input, key)) return deps.store.dispatch({ type: 'dialog', dialog: undefined });
  if (is('up', input, key)) return set(moveModelPicker(dialog, -1));
  if (is('down', input, key)) return set(moveModelPicker(dialog, 1));
  if (is('left', input, key)) return set(cycleEffort(dialog, -1));
  if (is('right', input, key)) return set(cycleEffort(dialog, 1));
  const save = is('modelSaveDefault', input, key);
  if (save || is('confirm', input, key)) {
    const { row } = modelSelection(dialog);
    if (row) void chooseModel(row, dialog, { save }, deps);
    return;
  }
  if (is('deleteBack', input, key)) return set(setModelFilter(dialog, [...dialog.filter].slice(0, -1).join('')));
  const typed = typedText(input, key);
  if (typed !== undefined) set(setModelFilter(dialog, dialog.filter + typed.replace(/[\r\n]+/g, ' ')));
}
