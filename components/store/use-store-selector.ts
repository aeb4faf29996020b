import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { TuiStore } from './create-store.js';
import type { TuiState } from './types.js';

/**
 * Reads a slice of the store; the component re-renders only when the slice changes
 * (by `equal`, Object.is by default), so a text delta does not re-render the header.
 */
export function useStoreSelector<T>(store: TuiStore, selector: (state: TuiState) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  const last = useRef<{ state: TuiState; selector: (state: TuiState) => T; value: T } | undefined>(undefined);
  const getSelected = useCallback((): T => {
    const state = store.getSnapshot();
    const prev = last.current;
    if (prev && prev.state === state && prev.selector === selector) return prev.value;
    const value = selector(state);
    if (prev && equal(prev.value, value)) {
      last.current = { state, selector, value: prev.value };
      return prev.value;
    }
    last.current = { state, selector, value };
    return value;
  }, [store, selector, equal]);
  return useSyncExternalStore(store.subscribe, getSelected, getSelected);
}

/** Shallow equality for selector results that are small objects or arrays. */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
