import type { AgentEvent } from '../events.js';

// A tool call's card lifecycle, the one set of rules for every face: the terminal's store
// (components/store/tool-card.ts) and the browser page (the server folds the events with them,
// src/serve/card-fold.ts). A card starts `running`; only a live card (running or awaiting
// approval) moves.

/** A tool call's life: a card's icon, colour and default expansion follow from it. */
export type ToolStatus = 'running' | 'awaiting_approval' | 'success' | 'error' | 'denied' | 'interrupted';

/** What can happen to a card, named for what happened rather than for the event that tells it. */
export type CardEvent =
  /** A permission_request: the call waits for the user. */
  | { readonly type: 'ask' }
  /** The call runs: the user allowed it, or its output arrived. */
  | { readonly type: 'run' }
  /** Its result arrived. */
  | { readonly type: 'finish'; readonly isError: boolean }
  /** The permission chain or the user said no. */
  | { readonly type: 'deny' }
  /** Its turn ended (or its subagent was stopped) before its result. */
  | { readonly type: 'interrupt' };

/** Something is still to happen: it runs or waits for an answer. */
export function isLive(status: ToolStatus): boolean {
  return status === 'running' || status === 'awaiting_approval';
}

/** status × event → status. A transition the lifecycle does not have leaves the status as it was. */
export function nextStatus(status: ToolStatus, event: CardEvent): ToolStatus {
  if (!isLive(status)) return status;
  switch (event.type) {
    case 'ask':
      return 'awaiting_approval';
    case 'run':
      return 'running';
    case 'finish':
      return event.isError ? 'error' : 'success';
    case 'deny':
      return 'denied';
    case 'interrupt':
      return 'interrupted';
  }
}

/** The engine events about one call (named by its tool_use id), as what they do to its card. */
export type CallEvent = Extract<AgentEvent, { type: 'tool_progress' | 'tool_result' | 'permission_request' | 'permission_denied' }>;

export function cardEventOf(event: CallEvent): CardEvent {
  switch (event.type) {
    case 'tool_progress':
      return { type: 'run' };
    case 'tool_result':
      return { type: 'finish', isError: event.is_error };
    case 'permission_request':
      return { type: 'ask' };
    case 'permission_denied':
      return { type: 'deny' };
  }
}
