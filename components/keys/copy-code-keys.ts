import type { Key } from 'ink';
import type { TerminalControls } from '../app/terminal-controls.js';
import type { CommandContext } from '../commands/registry.js';
import type { Dialog } from '../store/types.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { KeyDeps } from './dispatch.js';
import { is } from './keymap.js';

type CopyCodeDialog = Extract<Dialog, { kind: 'copyCode' }>;

/** The `/copy code` picker: arrows choose, Enter copies and closes, Esc closes. */
export function copyCodeKey(input: string, key: Key, dialog: CopyCodeDialog, deps: KeyDeps): void {
  const { store } = deps;
  const close = (): void => store.dispatch({ type: 'dialog', dialog: undefined });
  if (is('back', input, key)) return close();
  const last = dialog.blocks.length - 1;
  if (is('up', input, key)) return store.dispatch({ type: 'dialog', dialog: { ...dialog, index: Math.max(0, dialog.index - 1) } });
  if (is('down', input, key)) return store.dispatch({ type: 'dialog', dialog: { ...dialog, index: Math.min(last, dialog.index + 1) } });
  if (!is('confirm', input, key)) return;
  const block = dialog.blocks[dialog.index];
  close();
  if (block) copyAndSay(block.text, deps.terminal, deps.commandContext.print);
}

/** Copies through the terminal controls and says where the text went (or why it could not). */
export function copyAndSay(text: string, terminal: TerminalControls | undefined, print: CommandContext['print']): void {
  if (!terminal) return print('Copying is not available here.', 'warning');
  terminal.copy(text).then(
    (result) => print(result.message),
    (error: unknown) => print(`Could not copy: ${errorMessage(error)}`, 'error'),
  );
}
