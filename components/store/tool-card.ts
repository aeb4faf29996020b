import type { EventOf } from '../../src/events.js';
import { cardEventOf, isLive, nextStatus, type CallEvent, type CardEvent } from '../../src/tools/card-lifecycle.js';
import type { ToolItem, TranscriptItem } from './types.js';

// A tool card in the store: its lifecycle's rules (status × event → status) are shared with the
// browser page and live in src/tools/card-lifecycle.ts; here they are applied to the store's cards.

export { isLive, nextStatus, type CardEvent } from '../../src/tools/card-lifecycle.js';

/** Whether a cron auto run's card is still live (Esc on an idle prompt stops it). */
export function autoRunInProgress(items: readonly TranscriptItem[]): boolean {
  return items.some((i) => i.kind === 'tool' && i.background === true && i.backgroundAgent !== true && isLive(i.status));
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

export type ToolCardEvent = CallEvent;

/** Live output kept per card: the card shows its last lines. */
const PROGRESS_KEEP = 4000;

/**
 * An engine event about one call applied to its card. The status moves through nextStatus; what
 * the call produced (output, result, display) is kept whatever the status, so a denied or
 * interrupted card can still show what came back.
 */
export function applyToolEvent(card: ToolItem, event: ToolCardEvent): ToolItem {
  const next = withStatus(card, cardEventOf(event));
  switch (event.type) {
    case 'tool_progress':
      return { ...next, progress: (card.progress + event.content).slice(-PROGRESS_KEEP) };
    case 'tool_result':
      return { ...next, result: event.content, durationMs: event.duration_ms, ...(event.display ? { display: event.display } : {}) };
    case 'permission_request':
      return next === card ? card : { ...next, asked: true };
    case 'permission_denied':
      return next === card ? card : { ...next, deniedReason: event.reason };
  }
}
