import type { Key } from 'ink';
import { errorMessage } from '../../src/util/error-message.js';
import type { AppContext } from '../actions/app-context.js';
import { pickRewindPoint, REWIND_OPTIONS, runRewind } from '../actions/rewind.js';
import type { RewindDialog } from '../store/types.js';
import { is, isAnswer } from './keymap.js';

export function rewindKey(input: string, key: Key, dialog: RewindDialog, deps: AppContext): void {
  const set = (next: RewindDialog): void => deps.store.dispatch({ type: 'dialog', dialog: next });
  const close = (): void => deps.store.dispatch({ type: 'dialog', dialog: undefined });
  const { chosen } = dialog;
  if (!chosen) {
    if (is('back', input, key)) return close();
    if (is('up', input, key)) return set({ ...dialog, index: Math.max(0, dialog.index - 1) });
    if (is('down', input, key)) return set({ ...dialog, index: Math.min(dialog.points.length - 1, dialog.index + 1) });
    if (is('confirm', input, key)) set(pickRewindPoint(dialog, deps));
    return;
  }
  if (is('back', input, key)) return set({ kind: 'rewind', points: dialog.points, index: dialog.index });
  if (is('up', input, key)) return set({ ...dialog, chosen: { ...chosen, option: Math.max(0, chosen.option - 1) } });
  if (is('down', input, key)) return set({ ...dialog, chosen: { ...chosen, option: Math.min(REWIND_OPTIONS.length - 1, chosen.option + 1) } });
  const picked = REWIND_OPTIONS.findIndex((o) => isAnswer(o.command, input, key));
  if (picked < 0 && !is('confirm', input, key)) return;
  const option = REWIND_OPTIONS[picked < 0 ? chosen.option : picked];
  if (!option) return;
  close();
  runRewind(chosen, option, deps).catch((error: unknown) => deps.print(`Rewind failed: ${errorMessage(error)}`, 'error'));
}

