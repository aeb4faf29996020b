import type { EventOf } from '../../src/events.js';
import type { ToolItem, ToolStatus, TranscriptItem } from './types.js';

// A tool card's lifecycle, the same at every nesting level (the main agent's cards and a
// subagent's). A card starts `running`; only a live card (running or awaiting approval) moves.

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

/** Whether a cron auto run's card is still live (Esc on an idle prompt stops it). */
export function autoRunInProgress(items: readonly TranscriptItem[]): boolean {
  return items.some((i) => i.kind === 'tool' && i.background === true && isLive(i.status));
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

/** The card after `event`; the same object when its status does not change. */
export function withStatus(card: ToolItem, event: CardEvent): ToolItem {
  const status = nextStatus(card.status, event);
  return status === card.status ? card : { ...card, status };
}

/** A new card: every call starts running (an ask, if any, comes next). `id` is the card's own id. */
export function newToolCard(id: string, event: EventOf<'tool_start'>, at: number): ToolItem {
  return {
    kind: 'tool',
    id,
    toolUseId: event.id,
    name: event.name,
    input: event.input,
    ...(event.view ? { view: event.view } : {}),
    parallel: event.parallel,
    batch: event.batch,
    status: 'running',
    startedAt: at,
    progress: '',
  };
}

export type ToolCardEvent = EventOf<'tool_progress'> | EventOf<'tool_result'> | EventOf<'permission_request'> | EventOf<'permission_denied'>;

/** Live output kept per card: the card shows its last lines. */
const PROGRESS_KEEP = 4000;

/**
 * An engine event about one call applied to its card. The status moves through nextStatus; what
 * the call produced (output, result, display) is kept whatever the status, so a denied or
 * interrupted card can still show what came back.
 */
export function applyToolEvent(card: ToolItem, event: ToolCardEvent): ToolItem {
  switch (event.type) {
    case 'tool_progress':
      return { ...withStatus(card, { type: 'run' }), progress: (card.progress + event.content).slice(-PROGRESS_KEEP) };
    case 'tool_result':
      return {
        ...withStatus(card, { type: 'finish', isError: event.is_error }),
        result: event.content,
        durationMs: event.duration_ms,
        ...(event.display ? { display: event.display } : {}),
      };
    case 'permission_request': {
      const next = withStatus(card, { type: 'ask' });
      return next === card ? card : { ...next, asked: true };
    }
    case 'permission_denied': {
      const next = withStatus(card, { type: 'deny' });
      return next === card ? card : { ...next, deniedReason: event.reason };
    }
  }
}
