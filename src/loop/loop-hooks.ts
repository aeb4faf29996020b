// The loop's hook points outside tool calls: UserPromptSubmit (may block the prompt or add to it),
// Stop / SubagentStop (may send the model back to work, with a reason), PreCompact (may stop a
// compaction). Each yields the hook events the user sees.
import type { AgentEvent } from '../events.js';
import { contextOf, firstBlock, hookEvents } from '../hooks/hook-events.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { Message } from '../messages.js';
import { textOf } from '../messages.js';
import { agentOf } from './permission-hooks.js';

/** Claude Code stops honouring a Stop hook's block after this many in a row. */
export const MAX_STOP_BLOCKS = 8;

/** Runs UserPromptSubmit hooks. Returns undefined when a hook blocked the prompt (it never enters the history). */
export async function* promptHooks(prompt: Message, hooks: HookRunner | undefined, signal: AbortSignal): AsyncGenerator<AgentEvent, Message | undefined> {
  const pending = hooks?.takeContext?.() ?? [];
  let out = prompt;
  if (hooks?.has('UserPromptSubmit')) {
    const run = await hooks.run({ event: 'UserPromptSubmit', prompt: textOf(prompt) }, signal);
    for (const event of hookEvents(run)) yield event;
    if (firstBlock(run)) return undefined;
    const context = contextOf(run);
    if (context !== undefined) pending.push(context);
  }
  if (pending.length === 0) return out;
  out = { ...prompt, content: [...prompt.content, { type: 'text', text: `<hook-context>\n${pending.join('\n')}\n</hook-context>` }] };
  return out;
}

/**
 * Runs Stop (or SubagentStop) hooks when the model has finished. Returns the reason to carry on
 * when a hook blocks the stop; undefined to let the run end.
 */
export async function* stopHooks(
  hooks: HookRunner | undefined,
  opts: { agentName?: string; lastText: string; stopReason: string; blocksSoFar: number; signal: AbortSignal },
): AsyncGenerator<AgentEvent, string | undefined> {
  const agent = agentOf(opts);
  const event = agent.agentType !== undefined ? 'SubagentStop' : 'Stop';
  if (!hooks?.has(event, agent.agentType)) return undefined;
  const run = await hooks.run({ event, stopHookActive: opts.blocksSoFar > 0, lastAssistantMessage: opts.lastText, stopReason: opts.stopReason, ...agent }, opts.signal);
  for (const e of hookEvents(run)) yield e;
  const block = firstBlock(run);
  if (!block || block.outcome.stop !== undefined || opts.blocksSoFar >= MAX_STOP_BLOCKS) return undefined;
  return `A ${event} hook (${block.outcome.hook.source}) asks you to continue: ${block.reason}`;
}

/** Runs StopFailure hooks when a turn ends on an error (the model call failed): they are told, they decide nothing. */
export async function* stopFailureHooks(hooks: HookRunner | undefined, error: string, lastText: string, agentName: string | undefined): AsyncGenerator<AgentEvent, void> {
  const kind = errorKind(error);
  if (!hooks?.has('StopFailure', kind)) return;
  // The turn's own signal may be what failed it; the hook gets its own budget (its timeout).
  const run = await hooks.run({ event: 'StopFailure', source: kind, error, lastAssistantMessage: lastText, ...agentOf({ ...(agentName !== undefined ? { agentName } : {}) }) });
  for (const e of hookEvents(run)) yield e;
}

/** Claude Code's StopFailure matcher values, read from the error's words. */
export function errorKind(error: string): string {
  if (/\b429\b|rate.?limit/i.test(error)) return 'rate_limit';
  if (/\b401\b|\b403\b|auth|api key/i.test(error)) return 'authentication_failed';
  if (/billing|credit|quota/i.test(error)) return 'billing_error';
  if (/\b400\b|invalid/i.test(error)) return 'invalid_request';
  if (/\b5\d\d\b|overloaded|server/i.test(error)) return 'server_error';
  return 'unknown';
}

/** Runs PostCompact hooks after a compaction: they see the trigger and the summary; they decide nothing. */
export async function* postCompactHooks(hooks: HookRunner | undefined, trigger: 'auto' | 'manual', summary: string, signal: AbortSignal): AsyncGenerator<AgentEvent, void> {
  if (!hooks?.has('PostCompact', trigger)) return;
  const run = await hooks.run({ event: 'PostCompact', source: trigger, message: summary }, signal);
  for (const e of hookEvents(run)) yield e;
}

/**
 * Runs PostToolBatch hooks once a batch of calls has its results, before the next model call.
 * Returns text for the model (additionalContext), and `stop` when a hook ends the turn
 * (`decision: "block"`, `continue: false` or exit 2), with its reason.
 */
export async function* postToolBatchHooks(
  hooks: HookRunner | undefined,
  calls: { toolName: string; toolInput: unknown; toolUseId: string; toolResponse: string }[],
  signal: AbortSignal,
  agentName?: string,
): AsyncGenerator<AgentEvent, { context?: string; stop?: string }> {
  if (!hooks?.has('PostToolBatch') || signal.aborted) return {};
  const run = await hooks.run({ event: 'PostToolBatch', toolCalls: calls, ...agentOf({ ...(agentName !== undefined ? { agentName } : {}) }) }, signal);
  for (const e of hookEvents(run)) yield e;
  const block = firstBlock(run);
  const context = contextOf(run);
  return { ...(context !== undefined ? { context } : {}), ...(block ? { stop: `a PostToolBatch hook (${block.outcome.hook.source}) stopped the turn: ${block.reason}` } : {}) };
}

/** Runs PreCompact hooks; true when one blocks the compaction. */
export async function* preCompactHooks(
  hooks: HookRunner | undefined,
  trigger: 'auto' | 'manual',
  instructions: string | undefined,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, boolean> {
  if (!hooks?.has('PreCompact', trigger)) return false;
  const run = await hooks.run({ event: 'PreCompact', source: trigger, ...(instructions !== undefined ? { customInstructions: instructions } : {}) }, signal);
  for (const e of hookEvents(run)) yield e;
  return firstBlock(run) !== undefined;
}
