import type { AgentEvent } from '../events.js';

/**
 * Whether an event says a UserPromptSubmit hook blocked the prompt. The prompt's user_prompt is
 * recorded before its hooks run, so this later record takes it back out of the conversation.
 */
export function promptBlocked(event: AgentEvent): boolean {
  return event.type === 'hook' && event.hook_event === 'UserPromptSubmit' && (event.outcome === 'blocked' || event.outcome === 'stopped');
}
