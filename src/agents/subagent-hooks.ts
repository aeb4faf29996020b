// SubagentStart hooks: run as a subagent starts, with its type and id; what they add
// (additionalContext) is given to the subagent with its task. They cannot stop it (Claude Code's
// SubagentStart has no block); a failing hook is shown and the subagent starts anyway.
import type { AgentEvent } from '../events.js';
import { contextOf, hookEvents } from '../hooks/hook-events.js';
import type { HookRunner } from '../hooks/hook-types.js';

/** Returns the text for the subagent, or undefined. */
export async function subagentStartHooks(hooks: HookRunner | undefined, agentType: string, agentId: string, signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<string | undefined> {
  if (!hooks?.has('SubagentStart', agentType)) return undefined;
  const run = await hooks.run({ event: 'SubagentStart', agentType, agentId }, signal);
  for (const event of hookEvents(run)) emit(event);
  return contextOf(run);
}
