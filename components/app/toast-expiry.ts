import { TOAST_MS } from '../store/background-state.js';
import type { TuiStore } from '../store/create-store.js';

/**
 * Takes the oldest toast off the screen once it is TOAST_MS old, then the next, until none is left.
 * A timer can fire a little before `now()` says the time has come (Node measures timers from the
 * event loop's cached time, which lags behind Date.now() when the loop is busy): when the toast is
 * still there after the expiry was dispatched, the watch arms again for what remains, so a toast never
 * stays up for good. Returns the function that stops the watch.
 */
export function watchToastExpiry(store: TuiStore, now: () => number = Date.now): () => void {
  let armed: { toast: unknown; timer: ReturnType<typeof setTimeout> } | undefined;
  let stopped = false;

  const arm = (): void => {
    if (stopped) return;
    const first = store.getSnapshot().toasts[0];
    if (armed?.toast === first) return;
    if (armed) clearTimeout(armed.timer);
    armed = undefined;
    if (!first) return;
    const fire = (): void => {
      armed = undefined;
      store.dispatch({ type: 'toastExpire', now: now() });
      arm();
    };
    armed = { toast: first, timer: setTimeout(fire, Math.max(0, first.at + TOAST_MS - now())) };
  };

  const off = store.subscribe(arm);
  arm();
  return () => {
    stopped = true;
    off();
    if (armed) clearTimeout(armed.timer);
    armed = undefined;
  };
}
