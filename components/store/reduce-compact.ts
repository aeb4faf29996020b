import type { EventOf } from '../../src/events.js';
import { push } from './items.js';
import type { TuiState } from './types.js';

/** A compaction becomes a divider in the transcript; the messages it carries stay with the engine. */
export function reduceCompact(state: TuiState, event: EventOf<'compact'>): TuiState {
  return push(state, (id) => ({
    kind: 'compact',
    id,
    trigger: event.trigger,
    tokensBefore: event.tokens_before,
    tokensAfter: event.tokens_after,
    summary: event.summary,
  }));
}
