import type { Key } from 'ink';
import type { Dialog } from '../store/types.js';
import { copyAndSay } from '../actions/copy.js';
import type { AppContext } from '../actions/app-context.js';
import { is } from './keymap.js';

type CopyCodeDialog = Extract<Dialog, { kind: 'copyCode' }>;

/** The `/copy code` picker: arrows choose, Enter copies and closes, Esc closes. */
export function copyCodeKey(input: string, key: Key, dialog: CopyCodeDialog, deps: AppContext): void {
  const { store } = deps;
  const close = (): void => store.dispatch({ type: 'dialog', dialog: undefined });
  if (is('back', input, key)) return close();
  const last = dialog.blocks.length - 1;
  if (is('up', input, key)) return store.dispatch({ type: 'dialog', dialog: { ...dialog, index: Math.max(0, dialog.index - 1) } });
  if (is('down', input, key)) return store.dispatch({ type: 'dialog', dialog: { ...dialog, index: Math.min(last, dialog.index + 1) } });
  if (!is('confirm', input, key)) return;
  const block = dialog.blocks[dialog.index];
  close();
  if (block) copyAndSay(block.text, deps);
}
