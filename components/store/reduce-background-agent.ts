import type { EventOf } from '../../src/events.js';
import { addToast } from './background-state.js';
import { push, updateTool } from './items.js';
import { applyToolEvent, newToolCard, withStatus } from './tool-card.js';
import type { TuiState } from './types.js';

// A background agent (the agent tool's run_in_background): its card opens when it starts, outside
// any turn (a turn's end leaves it running), its loop's events nest in it (wrapped with parent_id =
// its id), and its end closes it with the report, with a notice and a toast.

export function reduceBackgroundAgent(state: TuiState, event: EventOf<'background_agent'>, at: number): TuiState {
  if (event.status === 'running') {
    const input = { type: event.agent_type, task: event.task ?? '', description: event.description, run_in_background: true };
    const start: EventOf<'tool_start'> = {
      type: 'tool_start',
      id: event.id,
      name: 'agent',
      input,
      parallel: false,
      batch: -1,
      view: { title: `${event.agent_type}: ${event.description} (background ${event.id})`, subject: { kind: 'input' } },
    };
    return push(state, (id) => ({ ...newToolCard(id, start, at), background: true, backgroundAgent: true }));
  }
  const s =
    event.status === 'stopped'
      ? updateTool(state, event.id, (t) => withStatus(t, { type: 'interrupt' }))
      : updateTool(state, event.id, (t) =>
          applyToolEvent(t, { type: 'tool_result', id: event.id, name: 'agent', content: event.result ?? '', is_error: event.status === 'failed', duration_ms: event.duration_ms ?? 0 }),
        );
  const how = event.status === 'completed' ? 'finished' : event.status === 'stopped' ? 'stopped' : 'failed';
  const level = event.status === 'failed' ? 'warning' : 'info';
  const message = `Background agent ${event.id} (${event.agent_type}: ${event.description}) ${how}; its report goes to the model with the next request.`;
  const withNotice = push(s, (id) => ({ kind: 'notice', id, level, message, code: 'background_agent' }));
  return addToast(withNotice, level, `⚙ agent ${event.id} ${how}`, at);
}
