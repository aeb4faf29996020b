import type { Key } from 'ink';
import type { TuiStore } from '../store/create-store.js';
import type { PermissionRequest, TuiState } from '../store/types.js';
import { createAnswerGuard } from './answer-guard.js';
import { is } from './keymap.js';

export { ANSWER_GUARD_MS as APPROVAL_GUARD_MS, TYPING_IDLE_MS } from './answer-guard.js';

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
  const timing = createAnswerGuard(now);
  let engaged: PermissionRequest | undefined; // the approval that has taken a key already keeps the keys

  const observe = (): void => {
    const request = store.getSnapshot().approvals[0];
    if (request === head) return;
    head = request;
    timing.shown();
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
        (timing.ready() &&
          // Enter with a draft in the box sends (queues) the draft, as the box says.
          !(is('confirm', input, key) && state.editor.text !== ''));
      if (takes) engaged = request;
      return takes;
    },
    noteDraftKey() {
      timing.noteTyping();
    },
    dispose: unsubscribe,
  };
}
