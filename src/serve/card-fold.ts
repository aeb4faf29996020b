import type { AgentEvent } from '../events.js';
import { cardEventOf, isLive, nextStatus, type CardEvent, type ToolStatus } from '../tools/card-lifecycle.js';

/**
 * A card whose status an event set, as the page receives it beside the event. `key` is the card's
 * own id: a provider may reuse a tool_use id, so the page never keys cards by it.
 */
export interface FoldedCard {
  key: string;
  status: ToolStatus;
}

interface Card {
  key: string;
  toolUseId: string;
  status: ToolStatus;
  /** A cron auto run's card: it outlives the turn. */
  background: boolean;
}

export type CardFold = (event: AgentEvent) => FoldedCard[];

/**
 * One session's tool cards folded from its events with the store's rules (src/tools/card-lifecycle.ts),
 * so the page shows the statuses the terminal shows. Returns the cards each event started or moved.
 */
export function createCardFold(): CardFold {
  let cards: Card[] = [];
  let next = 1;
  const open = (toolUseId: string, background: boolean): FoldedCard[] => {
    const card: Card = { key: `c${next++}`, toolUseId, status: 'running', background };
    cards.push(card);
    return [{ key: card.key, status: card.status }];
  };
  const move = (card: Card | undefined, event: CardEvent): FoldedCard[] => {
    if (!card) return [];
    const status = nextStatus(card.status, event);
    if (status === card.status) return [];
    card.status = status;
    return [{ key: card.key, status }];
  };
  // Engine events name a call by its tool_use id: they concern its newest card.
  const newest = (toolUseId: string): Card | undefined => cards.findLast((c) => c.toolUseId === toolUseId);

  return (event) => {
    switch (event.type) {
      case 'tool_start':
        return open(event.id, false);
      case 'tool_progress':
      case 'tool_result':
      case 'permission_request':
      case 'permission_denied':
        return move(newest(event.id), cardEventOf(event));
      case 'auto_run':
        if (event.status === 'started') return open(event.run_id, true);
        return move(newest(event.run_id), event.status === 'cancelled' ? { type: 'interrupt' } : { type: 'finish', isError: event.status === 'failed' });
      case 'terminal':
        return cards.filter((c) => !c.background && isLive(c.status)).flatMap((c) => move(c, { type: 'interrupt' }));
      case 'clear':
        cards = [];
        return [];
      default:
        return [];
    }
  };
}
