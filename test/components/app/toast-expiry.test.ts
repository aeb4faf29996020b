import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchToastExpiry } from '../../../components/app/toast-expiry.js';
import { TOAST_MS } from '../../../components/store/background-state.js';
import { createStore } from '../../../components/store/create-store.js';

afterEach(() => {
  vi.useRealTimers();
});

function fired(prompt: string) {
  return { type: 'cron' as const, task_id: 'abcd1234', schedule: '* * * * *', prompt, status: 'fired' as const };
}

describe('toast expiry', () => {
  it('takes each toast down in turn', () => {
    vi.useFakeTimers({ now: 10_000 });
    const store = createStore(undefined, { frameMs: 0 });
    const stop = watchToastExpiry(store);
    store.dispatch({ type: 'event', event: fired('one'), at: Date.now() });
    vi.advanceTimersByTime(1000);
    store.dispatch({ type: 'event', event: fired('two'), at: Date.now() });
    expect(store.getSnapshot().toasts).toHaveLength(2);
    vi.advanceTimersByTime(TOAST_MS - 1000);
    expect(store.getSnapshot().toasts.map((t) => t.text)).toEqual(['⏰ fired: two']);
    vi.advanceTimersByTime(1000);
    expect(store.getSnapshot().toasts).toEqual([]);
    stop();
  });

  it('still takes a toast down when its timer fires before the clock says it is time', () => {
    vi.useFakeTimers({ now: 10_000 });
    // The clock the toasts are stamped with runs 3 ms ahead of the timers, as Date.now() does of
    // Node's cached loop time on a busy machine: the first expiry comes "early" and removes nothing.
    let skew = 0;
    const now = (): number => Date.now() + skew;
    const store = createStore(undefined, { frameMs: 0, now });
    const stop = watchToastExpiry(store, () => now());
    store.dispatch({ type: 'event', event: fired('tick'), at: now() });
    skew = -3;
    vi.advanceTimersByTime(TOAST_MS);
    expect(store.getSnapshot().toasts).toHaveLength(1);
    vi.advanceTimersByTime(10);
    expect(store.getSnapshot().toasts).toEqual([]);
    stop();
  });

  it('stops watching when stopped', () => {
    vi.useFakeTimers({ now: 10_000 });
    const store = createStore(undefined, { frameMs: 0 });
    const stop = watchToastExpiry(store);
    store.dispatch({ type: 'event', event: fired('kept'), at: Date.now() });
    stop();
    vi.advanceTimersByTime(TOAST_MS * 2);
    expect(store.getSnapshot().toasts).toHaveLength(1);
  });
});
