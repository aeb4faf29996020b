import { errorMessage } from '../../src/util/error-message.js';
import type { AppContext } from './app-context.js';

/** Switches to a session, or says why not. */
export function resume(id: string, ctx: Pick<AppContext, 'store' | 'sessions'>): void {
  const print = (message: string, level: 'warning' | 'error'): void => ctx.store.dispatch({ type: 'notice', level, message });
  if (!ctx.sessions) return print('Resuming is not available here.', 'warning');
  // Switching ends this session's screen: a running turn would be cut off without a word.
  if (ctx.store.getSnapshot().busy) return print('A turn is running; press Esc to interrupt it, then resume.', 'warning');
  ctx.sessions.switchTo(id).then(
    (message) => {
      if (message) print(message, 'warning');
    },
    (error: unknown) => print(`Could not resume ${id}: ${errorMessage(error)}`, 'error'),
  );
}
