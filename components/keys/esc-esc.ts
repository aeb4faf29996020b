import type { TuiStore } from '../store/create-store.js';
import type { TuiState } from '../store/types.js';
import type { AppContext } from '../actions/app-context.js';

/** Two Esc presses this close together are one "Esc Esc". */
export const ESC_ESC_MS = 800;

// The first Esc of a pair, per app (its store): when, and on which draft.
const firstEsc = new WeakMap<TuiStore, { at: number; text: string }>();

/**
 * Esc on an idle prompt with a draft: the first arms, the second (soon after, same draft) clears
 * it, keeping it in the prompt history so Up brings it back (as Claude Code does). False when the
 * prompt is empty (nothing to clear).
 */
export function escOnDraft(state: TuiState, deps: Pick<AppContext, 'store' | 'now' | 'onPrompt'>, raw: string | undefined): boolean {
  const text = state.editor.text;
  if (text.trim() === '') return false;
  const now = deps.now();
  const first = firstEsc.get(deps.store);
  // Two presses read at once arrive as one event (Ink reads ESC ESC as Meta+Esc; so is one Esc).
  if (raw === '\x1b\x1b' || (first && first.text === text && now - first.at <= ESC_ESC_MS)) {
    firstEsc.delete(deps.store);
    deps.onPrompt?.(text);
    deps.store.dispatch({ type: 'editor', editor: { text: '', cursor: 0, pastes: [] } });
    return true;
  }
  firstEsc.set(deps.store, { at: now, text });
  return true;
}

// The first Esc on an empty prompt, per app.
const firstEmptyEsc = new WeakMap<TuiStore, number>();

/** Esc on an idle, empty prompt: the first arms, the second (soon after) opens rewind. False with a draft. */
export function escOnEmpty(state: TuiState, deps: Pick<AppContext, 'store' | 'now'>, raw: string | undefined, open: () => void): boolean {
  if (state.editor.text.trim() !== '') return false;
  const now = deps.now();
  const first = firstEmptyEsc.get(deps.store);
  if (raw === '\x1b\x1b' || (first !== undefined && now - first <= ESC_ESC_MS)) {
    firstEmptyEsc.delete(deps.store);
    open();
    return true;
  }
  firstEmptyEsc.set(deps.store, now);
  return true;
}
