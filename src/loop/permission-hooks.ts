// The loop's permission hook points. PermissionRequest runs where the user would be asked: a hook's
// `decision.behavior` deny refuses the call, its allow answers the prompt, except where only the
// user may answer (a protected path, a write a command may make there, a command that needs approval
// each time): there the allow is set aside, said so, and the user is asked as before. Deny rules
// never reach this point (the chain has refused already). An allow's updatedPermissions apply with it
// (permission-updates.ts). PermissionDenied runs after any denial and only tells.
import type { AgentEvent } from '../events.js';
import { notice } from '../events.js';
import { hookEvents } from '../hooks/hook-events.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { ToolUseBlock } from '../messages.js';
import type { PermissionCheck, PermissionChecker } from '../permissions/types.js';
import { applyPermissionUpdates } from './permission-updates.js';
import type { AnyTool } from '../tools/tool.js';

interface PermissionHookContext {
  hooks?: HookRunner;
  signal: AbortSignal;
  agentName?: string;
  /** Where an allow's updatedPermissions are applied. */
  permissions: PermissionChecker;
  classifier?: unknown;
}

/** updatedInput: the input the hook's allow is for (a new call to judge); interrupt: its deny also ends the turn. */
export type PermissionHookAnswer = { behavior: 'allow'; reason: string; updatedInput?: unknown } | { behavior: 'deny'; reason: string; interrupt?: boolean };

/** Runs PermissionRequest hooks on an ask; undefined when none answered (or its allow was set aside). */
export async function* permissionRequestHooks(
  call: ToolUseBlock,
  tool: AnyTool,
  input: unknown,
  check: Extract<PermissionCheck, { behavior: 'ask' }>,
  ctx: PermissionHookContext,
): AsyncGenerator<AgentEvent, PermissionHookAnswer | undefined> {
  if (!ctx.hooks?.has('PermissionRequest', tool.name)) return undefined;
  const run = await ctx.hooks.run(
    { event: 'PermissionRequest', toolName: tool.name, toolInput: input, toolUseId: call.id, permissionSuggestions: check.suggestions, ...agentOf(ctx) },
    ctx.signal,
  );
  for (const event of hookEvents(run, { toolId: call.id, toolName: call.name })) yield event;
  // A deny (or a block, or continue: false) from any hook wins over another's allow.
  for (const o of run.outcomes) {
    const why = o.permission?.behavior === 'deny' ? (o.permission.message ?? 'denied') : o.block ?? o.stop;
    if (why !== undefined) return { behavior: 'deny', reason: `a PermissionRequest hook (${o.hook.source}) denied it: ${why}`, ...(o.permission?.interrupt === true || o.stop !== undefined ? { interrupt: true } : {}) };
  }
  // Several allows: the last one that rewrites the input gives it (as PreToolUse's updatedInput).
  const allows = run.outcomes.filter((o) => o.permission?.behavior === 'allow');
  const allowing = [...allows].reverse().find((o) => o.permission?.updatedInput !== undefined) ?? allows[0];
  if (!allowing) return undefined;
  if (check.userOnly === true) {
    const updates = allows.some((o) => o.permission?.updatedPermissions !== undefined) ? ' Its updatedPermissions are not applied either.' : '';
    yield notice('warning', `A PermissionRequest hook (${allowing.hook.source}) answered allow for ${call.name}, but only you can approve this (${check.reason}): you are asked.${updates}`);
    return undefined;
  }
  // Its allow answers the prompt: the permission updates each allowing hook gave apply, as the matching answer would.
  for (const o of allows) if (o.permission?.updatedPermissions !== undefined) yield* applyPermissionUpdates(o.permission.updatedPermissions, o.hook, ctx);
  const reason = `approved by a PermissionRequest hook (${allowing.hook.source})${allowing.permission?.message ? `: ${allowing.permission.message}` : ''}`;
  const updated = allowing.permission?.updatedInput;
  return { behavior: 'allow', reason, ...(updated !== undefined ? { updatedInput: updated } : {}) };
}

/**
 * Runs PermissionDenied hooks after a denial: they cannot undo it. Returns true when one answered
 * `retry: true`: the model is told it may try again (a retry is a new call the chain judges again).
 */
export async function* permissionDeniedHooks(call: ToolUseBlock, input: unknown, reason: string, ctx: PermissionHookContext): AsyncGenerator<AgentEvent, boolean> {
  if (!ctx.hooks?.has('PermissionDenied', call.name) || ctx.signal.aborted) return false;
  const run = await ctx.hooks.run({ event: 'PermissionDenied', toolName: call.name, toolInput: input, toolUseId: call.id, message: reason, ...agentOf(ctx) }, ctx.signal);
  for (const event of hookEvents(run, { toolId: call.id, toolName: call.name })) yield event;
  return run.outcomes.some((o) => o.retry === true);
}

/** In a subagent's loop, its type ("Explore subagent" is the loop's name for the Explore agent). */
export function agentOf(ctx: { agentName?: string }): { agentType?: string } {
  return ctx.agentName !== undefined ? { agentType: ctx.agentName.replace(/ subagent$/, '') } : {};
}
