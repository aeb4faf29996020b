import type { AgentEvent, EventOf } from './events.js';

/** The usage events in an event, subagents' included (their tokens count for the session). */
export function usageIn(event: AgentEvent): EventOf<'usage'>[] {
  if (event.type === 'usage') return [event];
  if (event.type === 'subagent') return usageIn(event.event);
  return [];
}
