import type { Key } from 'ink';
import type { TuiStore } from '../store/create-store.js';
import type { PermissionRequest, TuiState } from '../store/types.js';
import { is } from './keymap.js';

/**
 * A key this soon after an approval is drawn was typed before anyone could read it. Visual reaction
 * time alone is ~250 ms, and reading which command is asked takes longer; Claude Code and VS Code
 * guard their prompts with a few hundred ms. 500 ms keeps a deliberate `y` feeling immediate.
 */
export const APPROVAL_GUARD_MS = 500;
/**
 * While keys keep coming this close together the person is typing their draft, not answering.
 * Typing at 1-5 keys per second leaves 200-1000 ms between keys.
 */
export const TYPING_IDLE_MS = 1000;

/**
 * Decides whether a key pressed while an approval waits answers it or goes to the draft, so that
 * type-ahead can never approve a command or save a rule. It records when each approval reached the
 * screen (store notifications are frames) and when the last key went to the draft.
 */
export interface ApprovalGuard {
  /** Whether the waiting approval takes this key; false sends it to the editor. */
  takesKey(state: TuiState, input: string, key: Key): boolean;
  /** A key went to the draft (the editor): typing is going on. */
  noteDraftKey(): void;
  dispose(): void;
}

export function createApprovalGuard(store: TuiStore, now: () => number): ApprovalGuard {
  // Requests are told apart by identity, not tool id: a provider may reuse an id for the next call.
  let head: PermissionRequest | undefined;
  let shownAt = 0;
  let engaged: PermissionRequest | undefined; // the approval that has taken a key already keeps the keys
  let lastDraftKeyAt = Number.NEGATIVE_INFINITY;

  const observe = (): void => {
    const request = store.getSnapshot().approvals[0];
    if (request === head) return;
    head = request;
    shownAt = now();
  };
  observe();
  const unsubscribe = store.subscribe(observe);

  return {
    takesKey(state, input, key) {
      observe();
      const request = state.approvals[0];
      if (request === undefined) return false;
      if (engaged === request) return true;
      // Esc declines, the safe direction: it needs no guard.
      const takes =
        is('back', input, key) ||
        (now() - shownAt >= APPROVAL_GUARD_MS &&
          now() - lastDraftKeyAt >= TYPING_IDLE_MS &&
          // Enter with a draft in the box sends (queues) the draft, as the box says.
          !(is('confirm', input, key) && state.editor.text !== ''));
      if (takes) engaged = request;
      return takes;
    },
    noteDraftKey() {
      lastDraftKeyAt = now();
    },
    dispose: unsubscribe,
  };
}
