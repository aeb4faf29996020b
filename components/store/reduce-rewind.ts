import type { EventOf } from '../../src/events.js';
import type { TuiState } from './types.js';

/** A rewind: the last `dropped_prompts` prompts and everything after the first of them leave the transcript. */
export function reduceRewind(state: TuiState, event: EventOf<'rewind'>): TuiState {
  const prompts = state.items.flatMap((item, i) => (item.kind === 'user' ? [i] : []));
  const cut = prompts[Math.max(0, prompts.length - event.dropped_prompts)];
  if (cut === undefined) return state;
  return { ...state, items: state.items.slice(0, cut), selectedId: undefined, scroll: { follow: true } };
}
