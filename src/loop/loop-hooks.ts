// The loop's hook points outside tool calls: UserPromptSubmit (may block the prompt or add to it),
// Stop / SubagentStop (may send the model back to work, with a reason), PreCompact (may stop a
// compaction). Each yields the hook events the user sees.
import type { AgentEvent } from '../events.js';
import { contextOf, firstBlock, hookEvents } from '../hooks/hook-events.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { Message } from '../messages.js';
import { textOf } from '../messages.js';

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
  opts: { subagent: boolean; lastText: string; stopReason: string; blocksSoFar: number; signal: AbortSignal },
): AsyncGenerator<AgentEvent, string | undefined> {
  const event = opts.subagent ? 'SubagentStop' : 'Stop';
  if (!hooks?.has(event)) return undefined;
  const run = await hooks.run({ event, stopHookActive: opts.blocksSoFar > 0, lastAssistantMessage: opts.lastText, stopReason: opts.stopReason }, opts.signal);
  for (const e of hookEvents(run)) yield e;
  const block = firstBlock(run);
  if (!block || block.outcome.stop !== undefined || opts.blocksSoFar >= MAX_STOP_BLOCKS) return undefined;
  return `A ${event} hook (${block.outcome.hook.source}) asks you to continue: ${block.reason}`;
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
