import * as z from 'zod';
import type { AgentEvent } from '../events.js';
import { notice } from '../events.js';
import type { ToolResultBlock, ToolUseBlock } from '../messages.js';
import { askId } from '../permissions/approval-answers.js';
import type { AskPermission, PermissionCheck, PermissionChecker, PermissionDecision } from '../permissions/types.js';
import { chainDecision, otherDecision, userDecision } from '../permissions/decision-record.js';
import { invalidToolArguments } from '../providers/tool-arguments.js';
import { describeCall } from '../tools/call-view.js';
import { offeredTools, type AnyTool, type CallApproval, type ToolContext, type ToolResult } from '../tools/tool.js';
import type { FileReadState } from '../tools/read-state.js';
import type { ImageLimits } from '../attachments/image-limits.js';
import { AsyncQueue } from '../util/async-queue.js';
import type { ToolBatch } from './partition.js';
import { afterToolHooks, withPreToolHooks } from './tool-hooks.js';
import { classifierAnswers, classifyAsk } from './auto-classify.js';
import { permissionDeniedHooks, permissionRequestHooks, type PermissionHookAnswer } from './permission-hooks.js';
import type { HookRunner } from '../hooks/hook-types.js';
import { errorMessage } from '../util/error-message.js';

export const INTERRUPTED_BY_USER = 'Interrupted by user: the tool call was stopped before it finished.';
/** The answer Esc gives at an approval prompt: no, and stop (as Claude Code does). */
export const USER_INTERRUPTED_AT_PROMPT = 'the user interrupted';

export interface RunToolsContext {
  tools: ReadonlyMap<string, AnyTool>;
  permissions: PermissionChecker;
  ask?: AskPermission;
  cwd: string;
  signal: AbortSignal;
  concurrency: number;
  now: () => number;
  /** Counts consecutive denials across turns; three in a row suggest plan mode. */
  denials: { consecutive: number };
  /** Shown on permission prompts raised inside a subagent or teammate. */
  agentName?: string;
  /** Numbers batches across the whole run so the UI can group cards. */
  nextBatchId: () => number;
  requestCompaction?: (instructions?: string) => void;
  /** PreToolUse / PostToolUse hooks (see tool-hooks.ts). */
  hooks?: HookRunner;
  /** The files this loop's model has read, for the stale-read guard of edit_file and write_file. */
  readState?: FileReadState;
  /** The spending cap's check, which a subagent's own loop makes too. */
  refuseModelCall?: ToolContext['refuseModelCall'];
  /** Auto mode's classifier (auto-classify.ts). */
  classifier?: ToolContext['classifier'];
  /** How large an image the provider takes, for tools that read pictures. */
  imageLimits?: ImageLimits;
  /** Set when a hook ended the turn (PermissionRequest's interrupt): the calls after it do not run. */
  halt?: { reason?: string };
}

type Prepared =
  // rewritten: a hook's updatedInput, run outside any parallel batch; hookContext: hook text for the model.
  // approval: how the call came to run (the bash tool contains what runs unasked).
  | { kind: 'run'; call: ToolUseBlock; tool: AnyTool; input: unknown; approval: CallApproval; rewritten?: boolean; hookContext?: string }
  | { kind: 'done'; call: ToolUseBlock; result: ToolResult };

/** Runs the batches in order, yielding events as they happen; returns results in the model's order. */
export async function* runToolBatches(
  batches: readonly ToolBatch[],
  ctx: RunToolsContext,
): AsyncGenerator<AgentEvent, ToolResultBlock[]> {
  const results: ToolResultBlock[] = [];
  for (const batch of batches) {
    const batchId = ctx.nextBatchId();
    for (const call of batch.calls) {
      const view = describeCall(ctx.tools.get(call.name), call.input);
      yield { type: 'tool_start', id: call.id, name: call.name, input: call.input, parallel: batch.parallel, batch: batchId, view };
    }
    // Permission checks run serially in the model's order, before anything in the batch executes.
    const prepared: Prepared[] = [];
    for (const call of batch.calls) {
      if (ctx.halt?.reason !== undefined) {
        prepared.push({ kind: 'done', call, result: { content: `Not run: ${ctx.halt.reason}.`, isError: true } });
        continue;
      }
      prepared.push(yield* withPreToolHooks(yield* prepareCall(call, ctx), ctx, (c) => prepareCall(c, ctx)));
    }
    // Tools that list or print many files leave out those a Read deny rule covers.
    const isReadDenied = await ctx.permissions.readDeniedMatcher().catch(() => () => true);
    const parallel = batch.parallel && !prepared.some((p) => p.kind === 'run' && p.rewritten);
    const outcome = yield* executeBatch(prepared, parallel ? ctx.concurrency : 1, { ...ctx, isReadDenied });
    results.push(...outcome);
  }
  return results;
}

/** hookAllowed: the reason of a PermissionRequest hook's allow for this (rewritten) input, which answers a plain ask only. */
async function* prepareCall(call: ToolUseBlock, ctx: RunToolsContext, hookAllowed?: string): AsyncGenerator<AgentEvent, Prepared> {
  const done = (content: string): Prepared => ({ kind: 'done', call, result: { content, isError: true } });
  if (ctx.signal.aborted) return done(INTERRUPTED_BY_USER);
  const tool = ctx.tools.get(call.name);
  if (!tool) {
    const names = offeredTools([...ctx.tools.values()]).map((t) => t.name).join(', ');
    return done(`Unknown tool "${call.name}". Available tools: ${names}.`);
  }
  const unavailable = tool.unavailable?.();
  if (unavailable !== undefined) return done(`${call.name} is not available now: ${unavailable}.`);
  const badJson = invalidToolArguments(call.input);
  if (badJson !== undefined) return done(badJson);
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) return done(`Invalid input for ${call.name}:\n${z.prettifyError(parsed.error)}`);
  const input: unknown = parsed.data;

  const about = { id: call.id, tool, input, ...(ctx.agentName !== undefined ? { agent: ctx.agentName } : {}) };
  let check: PermissionCheck;
  try {
    check = await ctx.permissions.check(tool, input);
  } catch (error) {
    check = { behavior: 'deny' as const, reason: `permission check failed: ${errorMessage(error)}` };
  }
  if (check.behavior !== 'ask') yield chainDecision(about, ctx.permissions, check);
  if (check.behavior === 'allow') return { kind: 'run', call, tool, input, approval: { byUser: false, readOnly: check.readOnly === true } };
  if (check.behavior === 'deny') return yield* deny(call, check.reason, ctx);

  if (classifierAnswers(check, ctx.permissions, ctx.classifier)) {
    const judged = yield* classifyAsk(about, check, { permissions: ctx.permissions, classifier: ctx.classifier, signal: ctx.signal });
    if (ctx.signal.aborted) return done(INTERRUPTED_BY_USER);
    if (judged.verdict === 'allow') return { kind: 'run', call, tool, input, approval: { byUser: false, byClassifier: true, readOnly: false } };
    if (judged.verdict === 'block') return yield* deny(call, `auto mode's classifier blocked it: ${judged.reason}`, ctx);
    // No verdict: the user decides, told why the classifier did not.
    if (judged.why !== undefined) check = { ...check, reason: `${check.reason} (auto mode's classifier gave no verdict: ${judged.why})` };
  }

  // A PermissionRequest hook answers where the user would be asked (not where only the user may).
  const hooked = hookAllowed !== undefined ? answerForRewrite(check, hookAllowed) : yield* permissionRequestHooks(call, tool, input, check, ctx);
  if (ctx.signal.aborted) return done(INTERRUPTED_BY_USER);
  if (hooked?.behavior === 'allow' && hooked.updatedInput !== undefined) {
    // The hook's allow is for another input: a new call, which the schema and the whole chain judge
    // afresh (deny rules, protected paths, ask rules), so an allow cannot carry over to it.
    const again = yield* prepareCall({ ...call, input: hooked.updatedInput }, ctx, hooked.reason);
    return again.kind === 'run' ? { ...again, rewritten: true } : again;
  }
  if (hooked) {
    yield otherDecision(about, ctx.permissions, hooked.behavior, 'hook', hooked.reason);
    if (hooked.behavior === 'deny') {
      if (hooked.interrupt === true && ctx.halt) {
        ctx.halt.reason = 'a PermissionRequest hook stopped the turn';
        yield notice('warning', `${hooked.reason} It stopped the turn (interrupt).`, 'hook');
        return yield* deny(call, `${hooked.reason}. The hook stopped the turn: do not retry; wait for the user's next message`, ctx);
      }
      return yield* deny(call, hooked.reason, ctx);
    }
    return { kind: 'run', call, tool, input, approval: { byUser: false, readOnly: false } };
  }

  if (!ctx.ask) {
    const hint = check.suggestions.length > 0 ? ` To allow it, add a rule such as ${check.suggestions.join(', ')} (--allowed-tools or settings).` : '';
    const reason = `${check.reason}; approval is needed and no one can be asked here.${hint}`;
    yield otherDecision(about, ctx.permissions, 'deny', check.by?.kind === 'rule' ? 'rule' : 'cairn', reason);
    return yield* deny(call, reason, ctx);
  }
  // A call the tool would refuse anyway (a stale read) is not put to the user.
  let refused: string | undefined;
  try {
    refused = await tool.refuse?.(input, { cwd: ctx.cwd, signal: ctx.signal, ...(ctx.readState ? { readState: ctx.readState } : {}) });
  } catch {
    refused = undefined; // the call itself reports what is wrong
  }
  if (refused !== undefined) return done(refused);
  let preview: string | undefined;
  try {
    preview = await tool.preview?.(input, { cwd: ctx.cwd, signal: ctx.signal });
  } catch {
    preview = undefined; // a preview is a courtesy; the prompt still shows the input
  }
  const request = {
    id: call.id,
    request_id: askId(),
    name: call.name,
    input,
    reason: check.reason,
    suggestions: check.suggestions,
    ...(check.folder ? { folder: check.folder } : {}),
    ...(preview !== undefined ? { preview } : {}),
    ...(ctx.agentName !== undefined ? { agent: ctx.agentName } : {}),
    view: describeCall(tool, input),
  };
  yield { type: 'permission_request', ...request };
  let decision: PermissionDecision;
  try {
    decision = await ctx.ask(request, ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted) return done(INTERRUPTED_BY_USER);
    const reason = `the permission prompt failed: ${errorMessage(error)}`;
    yield otherDecision(about, ctx.permissions, 'deny', 'cairn', reason);
    return yield* deny(call, reason, ctx);
  }
  yield userDecision(about, ctx.permissions, decision, check.reason);
  if (decision.behavior === 'deny' && ctx.signal.aborted) {
    // Declined and the turn stopped with it (Esc at the prompt): the model is told to wait.
    const said = decision.message ? ` and said: ${decision.message}` : '';
    yield { type: 'permission_denied', id: call.id, name: call.name, reason: `${USER_INTERRUPTED_AT_PROMPT}${said}` };
    return done(`Permission denied: ${USER_INTERRUPTED_AT_PROMPT}${said}. They declined this call and stopped the turn: do not retry it; wait for their next message.`);
  }
  if (ctx.signal.aborted) return done(INTERRUPTED_BY_USER);
  if (decision.behavior === 'deny') {
    const why = decision.unanswered ?? (decision.message ? `the user said: ${decision.message}` : 'the user declined');
    return yield* deny(call, why, ctx);
  }
  if (decision.mode !== undefined && tool.asksUser && decision.mode !== ctx.permissions.mode) {
    // Approving a plan can pick the mode to carry on in; no other answer changes the mode.
    ctx.permissions.setMode(decision.mode);
    yield { type: 'mode_change', mode: decision.mode };
  }
  // Only rules the prompt offered can be remembered: an answer never widens what was shown.
  const offered = new Set([...check.suggestions, ...(check.folder ?? [])]);
  const rules = (decision.rules ?? check.suggestions).filter((r) => offered.has(r));
  if (decision.remember === 'session') ctx.permissions.addSessionRules(rules);
  if (decision.remember === 'project') {
    try {
      await ctx.permissions.saveProjectRules(rules);
    } catch (error) {
      yield notice('error', `Could not save the rule to the project settings: ${errorMessage(error)}`);
    }
  }
  return { kind: 'run', call, tool, input, approval: { byUser: true, readOnly: false } };
}

/**
 * A PermissionRequest hook's allow for the input it rewrote, judged again by the chain: it answers a
 * plain ask; an ask rule, a protected path or a command that needs approval each time go to the user.
 */
function answerForRewrite(check: Extract<PermissionCheck, { behavior: 'ask' }>, reason: string): PermissionHookAnswer | undefined {
  if (check.userOnly === true || check.by?.kind === 'rule') return undefined;
  return { behavior: 'allow', reason: `${reason}, for the input it rewrote` };
}

async function* deny(call: ToolUseBlock, reason: string, ctx: RunToolsContext): AsyncGenerator<AgentEvent, Prepared> {
  yield { type: 'permission_denied', id: call.id, name: call.name, reason };
  const retry = yield* permissionDeniedHooks(call, call.input, reason, ctx);
  ctx.denials.consecutive++;
  const planning = ctx.permissions.mode === 'plan';
  if (ctx.denials.consecutive === 3) {
    yield notice(
      'warning',
      planning
        ? 'Three tool calls in a row were denied in plan mode: nothing changes until you approve a plan. cairn asks the model to present one (exit_plan_mode); Shift+Tab leaves plan mode.'
        : 'Three tool calls in a row were denied. Consider plan mode (Shift+Tab or /mode plan) to agree on a plan first.',
      'denials',
    );
  }
  // In plan mode the model is told the way forward, not only what it may not do.
  const hint = planning && call.name !== 'exit_plan_mode' ? ' When your plan is ready, present it with exit_plan_mode for the user to approve.' : '';
  // The reason is a clause ("plan mode: commands do not run ..."): a sentence ends before the hint.
  const sentence = hint && !/[.!?]$/.test(reason) ? `${reason}.` : reason;
  const again = retry ? ' A PermissionDenied hook says you may retry this call (it will be checked again).' : '';
  const full = again && !hint && !/[.!?]$/.test(sentence) ? `${sentence}.` : sentence;
  return { kind: 'done', call, result: { content: `Permission denied: ${full}${hint}${again}`, isError: true } };
}

type BatchContext = RunToolsContext & { isReadDenied: (absPath: string) => boolean };

async function* executeBatch(
  prepared: readonly Prepared[],
  concurrency: number,
  ctx: BatchContext,
): AsyncGenerator<AgentEvent, ToolResultBlock[]> {
  const results = new Array<ToolResultBlock>(prepared.length);
  const queue = new AsyncQueue<AgentEvent>();
  const finish = (index: number, call: ToolUseBlock, result: ToolResult, durationMs: number): void => {
    const content = result.attachments?.length ? [{ type: 'text' as const, text: result.content }, ...result.attachments] : result.content;
    results[index] = { type: 'tool_result', tool_use_id: call.id, content, ...(result.isError ? { is_error: true } : {}) };
    queue.push({
      type: 'tool_result',
      id: call.id,
      name: call.name,
      content: result.content,
      is_error: result.isError === true,
      duration_ms: durationMs,
      ...(result.attachments?.length ? { attachments: result.attachments } : {}),
      ...(result.display ? { display: result.display } : {}),
    });
  };

  const runnable: number[] = [];
  prepared.forEach((p, i) => {
    if (p.kind === 'done') finish(i, p.call, p.result, 0);
    else runnable.push(i);
  });
  if (runnable.length > 0) ctx.denials.consecutive = 0;

  let cursor = 0;
  const worker = async (): Promise<void> => {
    // Workers share the cursor: each takes the next runnable call until none is left.
    for (let index = runnable[cursor++]; index !== undefined; index = runnable[cursor++]) {
      const p = prepared[index];
      if (p?.kind !== 'run') continue;
      const started = ctx.now();
      const ran = await callTool(p, ctx, queue, (text) => queue.push({ type: 'tool_progress', id: p.call.id, name: p.call.name, content: text }));
      const { result, events } = await afterToolHooks(p, ran, ctx);
      for (const event of events) queue.push(event);
      finish(index, p.call, result, Math.max(0, ctx.now() - started));
    }
  };
  const workers = Array.from({ length: Math.min(concurrency, Math.max(1, runnable.length)) }, () => worker());
  void Promise.all(workers).then(() => queue.close());
  for await (const event of queue) yield event;
  return results;
}

async function callTool(
  p: Extract<Prepared, { kind: 'run' }>,
  ctx: BatchContext,
  queue: AsyncQueue<AgentEvent>,
  onProgress: (text: string) => void,
): Promise<ToolResult> {
  if (ctx.signal.aborted) return { content: INTERRUPTED_BY_USER, isError: true };
  try {
    return await p.tool.call(p.input, {
      cwd: ctx.cwd,
      signal: ctx.signal,
      onProgress,
      toolUseId: p.call.id,
      emit: (event) => queue.push(event),
      isReadDenied: ctx.isReadDenied,
      approval: p.approval,
      ...(ctx.readState ? { readState: ctx.readState } : {}),
      ...(ctx.ask ? { ask: ctx.ask } : {}),
      ...(ctx.agentName !== undefined ? { agentName: ctx.agentName } : {}),
      ...(ctx.requestCompaction ? { requestCompaction: ctx.requestCompaction } : {}),
      ...(ctx.hooks ? { hooks: ctx.hooks } : {}),
      ...(ctx.refuseModelCall ? { refuseModelCall: ctx.refuseModelCall } : {}),
      ...(ctx.classifier ? { classifier: ctx.classifier } : {}),
      ...(ctx.imageLimits ? { imageLimits: ctx.imageLimits } : {}),
    });
  } catch (error) {
    if (ctx.signal.aborted) return { content: INTERRUPTED_BY_USER, isError: true };
    return { content: `${p.call.name} failed: ${errorMessage(error)}`, isError: true };
  }
}

export { errorMessage };
