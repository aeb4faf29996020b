import { errorMessage } from '../../src/util/error-message.js';
import type { AppContext } from './app-context.js';

/** Copies through the terminal controls and says where the text went (or why it could not). */
export function copyAndSay(text: string, ctx: Pick<AppContext, 'terminal' | 'print'>): void {
  const { terminal, print } = ctx;
  if (!terminal) return print('Copying is not available here.', 'warning');
  terminal.copy(text).then(
    (result) => print(result.message),
    (error: unknown) => print(`Could not copy: ${errorMessage(error)}`, 'error'),
  );
}
