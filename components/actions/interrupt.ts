import type { AppContext } from './app-context.js';

/** Stops the turn; prompts that were waiting go back into the editor, so nothing runs by itself. */
export function interrupt(ctx: Pick<AppContext, 'store' | 'session'>): void {
  const taken = ctx.session.interrupt();
  ctx.store.dispatch({ type: 'unqueue', taken, remaining: [] });
}

/** Takes the last queued prompt back into the editor to edit or drop it (as Claude Code does); false when none waits. */
export function takeLastQueued(ctx: Pick<AppContext, 'store' | 'session'>): boolean {
  if (ctx.store.getSnapshot().queued.length === 0) return false;
  const last = ctx.session.unqueueLast();
  if (last === undefined) return false;
  ctx.store.dispatch({ type: 'unqueue', taken: [last], remaining: [...ctx.session.queued] });
  return true;
}
