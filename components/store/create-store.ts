import { FRAME_MS } from '../frame-rate.js';
import type { AgentEvent } from '../../src/events.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import type { InitialStateOptions } from './reduce.js';
import { initialState, reduce } from './reduce.js';
import type { TuiState, UiAction } from './types.js';

export interface TuiStore {
  getSnapshot(): TuiState;
  subscribe(listener: () => void): () => void;
  /** UI actions apply at once (after any events still waiting for the frame). */
  dispatch(action: UiAction): void;
  /** Engine events wait for the next frame, then apply together with one notify. */
  enqueue(event: AgentEvent): void;
  /** Applies waiting events now (tests, exit). */
  flushNow(): void;
  dispose(): void;
}

export interface StoreOptions extends InitialStateOptions {
  now?: () => number;
  frameMs?: number;
}

export function createStore(session?: AgentSession, options: StoreOptions = {}): TuiStore {
  const now = options.now ?? Date.now;
  const frameMs = options.frameMs ?? FRAME_MS;
  let state = initialState({
    ...(session ? { model: session.model, provider: session.providerName, mode: session.mode } : {}),
    ...options,
  });
  if (session) state = reduce(state, { type: 'event', event: session.sessionStart(), at: now() });
  const listeners = new Set<() => void>();
  let pending: { event: AgentEvent; at: number }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastFlush = 0;

  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  const apply = (): boolean => {
    if (pending.length === 0) return false;
    const batch = pending;
    pending = [];
    for (const { event, at } of batch) state = reduce(state, { type: 'event', event, at });
    return true;
  };
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    lastFlush = now();
    if (apply()) notify();
  };

  const store: TuiStore = {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch(action) {
      const applied = apply();
      const next = reduce(state, action);
      const changed = next !== state;
      state = next;
      if (applied || changed) notify();
    },
    enqueue(event) {
      pending.push({ event, at: now() });
      if (timer) return;
      const wait = Math.max(0, frameMs - (now() - lastFlush));
      timer = setTimeout(flush, wait);
    },
    flushNow: flush,
    dispose() {
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
  const unsubscribe = session?.subscribe((event) => store.enqueue(event));
  return store;
}
