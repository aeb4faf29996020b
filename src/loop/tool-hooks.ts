// The loop's two tool hook points. PreToolUse runs after the permission chain has allowed a call:
// a hook's deny (or block) wins over any allow, its allow never overrides the chain (which has
// already decided), its ask puts the call to the user, and its updatedInput goes through the
// tool's schema and the permission chain again as a new call. PostToolUse runs after a result
// (PostToolUseFailure after an error result) and may add text for the model to it or, with
// updatedToolOutput, replace what the model sees.
import type { AgentEvent } from '../events.js';
import { contextOf, firstBlock, hookEvents } from '../hooks/hook-events.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { ToolUseBlock } from '../messages.js';
import { askId } from '../permissions/approval-answers.js';
import type { AskPermission, PermissionChecker } from '../permissions/types.js';
import { otherDecision } from '../permissions/decision-record.js';
import type { AnyTool } from '../tools/tool.js';
import { describeCall } from '../tools/call-view.js';
import type { CallApproval, ToolResult } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';

interface PreHookContext {
  hooks?: HookRunner;
  /** For the decision log: a hook's block is a permission decision too. */
  permissions?: PermissionChecker;
  ask?: AskPermission;
  signal: AbortSignal;
  agentName?: string;
}

const blocked = (call: ToolUseBlock, content: string) => ({ kind: 'done' as const, call, result: { content, isError: true } });

/**
 * Runs PreToolUse hooks on a call the chain allowed. `prepare` is the loop's own preparation
 * (schema, permission chain, approval), run again on a rewritten input.
 */
export async function* withPreToolHooks<P extends { kind: 'run'; call: ToolUseBlock; input: unknown; tool: AnyTool; approval: CallApproval; rewritten?: boolean; hookContext?: string } | { kind: 'done'; call: ToolUseBlock; result: ToolResult }>(
  prepared: P,
  ctx: PreHookContext,
  prepare: (call: ToolUseBlock) => AsyncGenerator<AgentEvent, P>,
): AsyncGenerator<AgentEvent, P | ReturnType<typeof blocked>> {
  if (prepared.kind !== 'run' || !ctx.hooks?.has('PreToolUse', prepared.tool.name)) return prepared;
  const { call, tool } = prepared;
  const run = await ctx.hooks.run({ event: 'PreToolUse', toolName: tool.name, toolInput: prepared.input, toolUseId: call.id }, ctx.signal);
  for (const event of hookEvents(run, { toolId: call.id, toolName: call.name })) yield event;
  if (ctx.signal.aborted) return blocked(call, 'Interrupted by user: the tool call was stopped before it finished.');
  const block = firstBlock(run);
  if (block) {
    const reason = `Blocked by a PreToolUse hook (${block.outcome.hook.source}): ${block.reason}`;
    if (ctx.permissions) yield otherDecision({ id: call.id, tool: prepared.tool, input: prepared.input }, ctx.permissions, 'deny', 'hook', reason);
    return blocked(call, reason);
  }

  const asking = run.outcomes.find((o) => o.decision === 'ask');
  let approved = prepared;
  if (asking) {
    const reason = `a PreToolUse hook (${asking.hook.source}) asks: ${asking.decisionReason ?? 'approve this call?'}`;
    if (!ctx.ask) return blocked(call, `Permission denied: ${reason}; approval is needed and no one can be asked here.`);
    const request = { id: call.id, request_id: askId(), name: call.name, input: prepared.input, reason, suggestions: [], ...(ctx.agentName !== undefined ? { agent: ctx.agentName } : {}), view: describeCall(tool, prepared.input) };
    yield { type: 'permission_request', ...request };
    try {
      const decision = await ctx.ask(request, ctx.signal);
      if (decision.behavior === 'deny') {
        const why = decision.message ? `the user said: ${decision.message}` : 'the user declined';
        yield { type: 'permission_denied', id: call.id, name: call.name, reason: why };
        return blocked(call, `Permission denied: ${why}`);
      }
      approved = { ...prepared, approval: { byUser: true, readOnly: false } };
    } catch (error) {
      return blocked(call, ctx.signal.aborted ? 'Interrupted by user: the tool call was stopped before it finished.' : `Permission denied: the permission prompt failed: ${errorMessage(error)}`);
    }
  }

  const context = contextOf(run);
  const rewrite = [...run.outcomes].reverse().find((o) => o.updatedInput !== undefined);
  if (!rewrite) return context === undefined ? approved : { ...approved, hookContext: context };
  // The new input is a new call: its schema and the permission chain judge it afresh, so a hook
  // cannot carry an allow for one input over to another.
  const again = yield* prepare({ ...call, input: rewrite.updatedInput });
  if (again.kind !== 'run') return again;
  return { ...again, rewritten: true, ...(context !== undefined ? { hookContext: context } : {}) };
}

/** Runs PostToolUse (or, on an error result, PostToolUseFailure) hooks; returns the result the model sees and the events to show. */
export async function afterToolHooks(
  p: { call: ToolUseBlock; tool: { name: string }; input: unknown; hookContext?: string },
  result: ToolResult,
  ctx: { hooks?: HookRunner; signal: AbortSignal },
): Promise<{ result: ToolResult; events: AgentEvent[] }> {
  const notes: string[] = p.hookContext !== undefined ? [p.hookContext] : [];
  const events: AgentEvent[] = [];
  let seen = result;
  // An error result goes to PostToolUseFailure (with the error), a success to PostToolUse.
  const event = result.isError ? 'PostToolUseFailure' : 'PostToolUse';
  if (ctx.hooks?.has(event, p.tool.name) && !ctx.signal.aborted) {
    const outcome = result.isError ? { error: result.content } : { toolResponse: result.content };
    const run = await ctx.hooks.run({ event, toolName: p.tool.name, toolInput: p.input, toolUseId: p.call.id, ...outcome }, ctx.signal);
    events.push(...hookEvents(run, { toolId: p.call.id, toolName: p.call.name }));
    for (const o of run.outcomes) if (o.block !== undefined) notes.push(`${event} hook (${o.hook.source}): ${o.block}`);
    // updatedToolOutput: the model sees the hook's text instead (the last hook that gave one wins);
    // the tool has run all the same, and the card keeps what it showed.
    const replaced = [...run.outcomes].reverse().find((o) => o.updatedOutput !== undefined)?.updatedOutput;
    if (replaced !== undefined) {
      const { attachments: _dropped, ...rest } = result;
      seen = { ...rest, content: replaced };
    }
    const context = contextOf(run);
    if (context !== undefined) notes.push(context);
  }
  if (notes.length === 0) return { result: seen, events };
  return { result: { ...seen, content: `${seen.content}\n\n${notes.join('\n')}` }, events };
}
