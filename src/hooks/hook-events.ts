// A hook's outcome as the events the user sees (TUI notice, stream-json line).
import type { EventOf } from '../events.js';
import type { HookOutcome, HookRun } from './hook-types.js';

type HookEvent = EventOf<'hook'>;

export function hookEvents(run: HookRun, where: { toolId?: string; toolName?: string } = {}): HookEvent[] {
  const events: HookEvent[] = [];
  const add = (o: HookOutcome, outcome: HookEvent['outcome'], text: string): void => {
    events.push({
      type: 'hook',
      hook_event: o.hook.event,
      outcome,
      text,
      source: o.hook.source,
      command: o.hook.command,
      ...(where.toolId !== undefined ? { tool_id: where.toolId } : {}),
      ...(where.toolName !== undefined ? { tool_name: where.toolName } : {}),
    });
  };
  for (const o of run.outcomes) {
    if (o.error !== undefined) add(o, 'error', `${o.hook.key}: ${o.error}`);
    if (o.stop !== undefined) add(o, 'stopped', o.stop);
    const denied = o.decision === 'deny' ? (o.decisionReason ?? 'denied') : undefined;
    if (o.block !== undefined || denied !== undefined) add(o, 'blocked', o.block ?? denied ?? '');
    if (o.decision === 'ask') add(o, 'message', `asks for approval${o.decisionReason ? `: ${o.decisionReason}` : ''}`);
    if (o.permission) add(o, o.permission.behavior === 'deny' ? 'blocked' : 'message', o.permission.behavior === 'deny' ? (o.permission.message ?? 'denied by a PermissionRequest hook') : `answers the permission prompt: allow${o.permission.message ? ` (${o.permission.message})` : ''}`);
    // suppressOutput hides what the hook added (its context, its rewrite), never a block, an error or its systemMessage.
    const rewrite = o.updatedInput ?? o.permission?.updatedInput;
    if (rewrite !== undefined && o.suppressOutput !== true) add(o, 'updated', JSON.stringify(rewrite));
    if (o.updatedOutput !== undefined && o.suppressOutput !== true) add(o, 'updated', `replaced the tool's output for the model: ${o.updatedOutput.length > 200 ? `${o.updatedOutput.slice(0, 200)}…` : o.updatedOutput}`);
    if (o.retry === true) add(o, 'message', 'tells the model it may retry the call');
    if (o.context !== undefined && o.suppressOutput !== true) add(o, 'injected', o.context);
    if (o.message !== undefined) add(o, 'message', o.message);
  }
  return events;
}

/** The first block (or deny) among the outcomes, with the hook that gave it. */
export function firstBlock(run: HookRun): { reason: string; outcome: HookOutcome } | undefined {
  for (const o of run.outcomes) {
    if (o.block !== undefined) return { reason: o.block, outcome: o };
    if (o.decision === 'deny') return { reason: o.decisionReason ?? 'denied by a hook', outcome: o };
    if (o.stop !== undefined) return { reason: o.stop, outcome: o };
  }
  return undefined;
}

/** The text the hooks give the model, each part naming its hook's file. */
export function contextOf(run: HookRun): string | undefined {
  const parts = run.outcomes.filter((o) => o.context !== undefined).map((o) => `${o.hook.event} hook (${o.hook.source}): ${o.context ?? ''}`);
  return parts.length > 0 ? parts.join('\n') : undefined;
}
