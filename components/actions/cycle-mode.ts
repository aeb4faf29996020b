import { nextMode } from '../../src/permission-modes.js';
import type { AppContext } from './app-context.js';

/** Shift+Tab: the next permission mode, by the engine's cycling policy (src/permission-modes.ts). */
export function cycleMode(ctx: Pick<AppContext, 'store' | 'session'>): void {
  ctx.session.setMode(nextMode(ctx.session.mode, ctx.store.getSnapshot().info.startedInBypass, ctx.session.autoModeAvailable));
}
