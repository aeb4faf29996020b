import type { AgentEvent } from '../../src/events.js';
import type { TranscriptItem, TuiState, UiAction } from './types.js';

const CLOSE_TURN: AgentEvent = { type: 'terminal', reason: 'completed', turns: 0, messages: [] };

/**
 * Applies a recorded session (a resume) in one step. Each turn is reduced on an empty item list
 * and the finished turns are joined once at the end: events only touch their own turn's items,
 * and copying the whole transcript per event would make a 10,000-message resume quadratic.
 * A turn cut off by a crash has no terminal event; it is closed here so nothing spins forever.
 */
export function reduceRecorded(state: TuiState, events: readonly AgentEvent[], at: number, reduce: (state: TuiState, action: UiAction) => TuiState): TuiState {
  const turns: (readonly TranscriptItem[])[] = [state.items];
  const close = (s: TuiState): TuiState => (s.busy ? reduce(s, { type: 'event', event: CLOSE_TURN, at }) : s);
  let s: TuiState = { ...state, items: [] };
  for (const event of events) {
    if (event.type === 'session_start') continue;
    // /clear: the transcript shows the conversation from there on, as the model sees it.
    if (event.type === 'clear') turns.length = 1;
    // A rewind cuts across turns: joined first (rare, so the copy is cheap), then cut by the reducer.
    if (event.type === 'rewind') {
      s = { ...s, items: turns.splice(0).flat().concat(s.items) };
      turns.push([]);
    }
    if (event.type === 'user_prompt' && s.items.length > 0) {
      s = close(s);
      turns.push(s.items);
      s = { ...s, items: [] };
    }
    s = reduce(s, { type: 'event', event, at });
  }
  s = close(s);
  turns.push(s.items);
  return { ...s, items: turns.flat() };
}
