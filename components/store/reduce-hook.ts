import type { AgentEvent, EventOf } from '../../src/events.js';
import { updateTool } from './items.js';
import type { HookNote, TuiState } from './types.js';

type Reduce = (state: TuiState, event: AgentEvent, at: number) => TuiState;

/** Words a user reads for each hook outcome, before the hook's own text. */
const LABEL: Record<HookNote['outcome'], string> = {
  blocked: 'blocked',
  injected: 'added',
  updated: 'changed the input',
  message: 'says',
  stopped: 'stopped',
  error: 'failed',
};

/** "PreToolUse hook blocked: why (file)": how a hook outcome reads outside a card. */
export function hookNoteText(event: Pick<EventOf<'hook'>, 'hook_event' | 'outcome' | 'text' | 'source'>): string {
  return `${event.hook_event} hook ${LABEL[event.outcome]}: ${event.text} (${event.source})`;
}

/**
 * A hook's outcome goes under its tool card when it concerns a call; otherwise (a prompt, a stop,
 * a compaction, or a card that is not on screen) it is a notice line.
 */
export function reduceHook(state: TuiState, event: EventOf<'hook'>, at: number, reduce: Reduce): TuiState {
  const note: HookNote = { hookEvent: event.hook_event, outcome: event.outcome, text: event.text, source: event.source };
  if (event.tool_id !== undefined) {
    let found = false;
    const s = updateTool(state, event.tool_id, (t) => {
      found = true;
      return { ...t, hookNotes: [...(t.hookNotes ?? []), note] };
    });
    if (found) return s;
  }
  const level = event.outcome === 'error' || event.outcome === 'blocked' || event.outcome === 'stopped' ? 'warning' : 'info';
  return reduce(state, { type: 'notice', level, message: hookNoteText(event), code: 'hook' }, at);
}
