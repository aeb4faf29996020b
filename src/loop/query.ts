import type { AgentEvent, TerminalReason } from '../events.js';
import { notice } from '../events.js';
import type { Message, ToolResultBlock, ToolUseBlock } from '../messages.js';
import { textOf, toolUsesOf, userText } from '../messages.js';
import type { AskPermission, PermissionChecker } from '../permissions/types.js';
import type { ModelProvider } from '../providers/provider.js';
import type { ActionClassifier } from '../permissions/auto/classifier.js';
import { offeredTools, type AnyTool } from '../tools/tool.js';
import { isAbortError } from '../util/abort.js';
import { normalizeMessages } from './normalize.js';
import { partitionToolCalls } from './partition.js';
import { errorMessage, INTERRUPTED_BY_USER, runToolBatches } from './run-tools.js';
import { imageLimitsFor } from '../attachments/image-limits.js';
import { toolSpec } from './tool-specs.js';
import { postCompactHooks, postToolBatchHooks, preCompactHooks, promptHooks, stopFailureHooks, stopHooks } from './loop-hooks.js';
import type { HookRunner } from '../hooks/hook-types.js';
import { compactMessages, droppedAttachmentsNotice, type CompactionResult } from '../context/compact.js';
import { microCompact } from '../context/micro-compact.js';
import { estimateRequestTokens } from '../context/tokens.js';
import { createFileReadState, type FileReadState } from '../tools/read-state.js';

export const DEFAULT_MAX_TURNS = 50;
// Bounded so a model asking for 50 greps does not open 50 walks at once; 8 lets a typical
// batch of reads finish in one wave.
export const DEFAULT_TOOL_CONCURRENCY = 8;
export const DEFAULT_MAX_TOKENS = 16_384;
/** Sent once after an answer cut at the output limit, when continueOnMaxTokens allows it. */
export const CONTINUE_AFTER_CUT = 'Your answer was cut off at the output limit. Continue exactly where it stopped, without repeating what you already wrote.';

/** What a user reads when an answer stopped at the output limit. */
export function cutAtOutputLimit(maxTokens: number): string {
  return `Answer cut at the output limit (${maxTokens} output tokens): it is incomplete.`;
}

export interface QueryParams {
  /** History so far; the loop never mutates it. */
  messages: readonly Message[];
  /** The new user message for this run (already in the internal shape). */
  prompt?: Message;
  provider: ModelProvider;
  tools: readonly AnyTool[];
  permissions: PermissionChecker;
  /** Absent: calls that need approval are denied with the reason sent back to the model. */
  ask?: AskPermission;
  /** Assembled before every model call, so mode or memory changes apply on the next turn. */
  system: () => string | Promise<string>;
  cwd: string;
  signal: AbortSignal;
  maxTurns?: number;
  maxTokens?: number;
  concurrency?: number;
  now?: () => number;
  agentName?: string;
  /** Shared across runs of one session so the three-denials hint counts across prompts. */
  denials?: { consecutive: number };
  /** Context management: micro-compaction of each request and auto-compaction past a threshold. */
  compaction?: CompactionSettings;
  /**
   * Short notes for the model before each call (stale todos, finished background shells, fired
   * cron prompts). Added to the request's last user message only, never to the history.
   */
  reminders?: () => string[] | Promise<string[]>;
  /** After an answer cut at the output limit, ask the model once to continue it (default false). */
  continueOnMaxTokens?: boolean;
  /** The session's hooks (UserPromptSubmit, Pre/PostToolUse, Stop or SubagentStop, PreCompact). */
  hooks?: HookRunner;
  /**
   * The files this agent's model has read (kept across the prompts of a session); absent: a new,
   * empty one for this run. edit_file and write_file change an existing file only once it is read.
   */
  readState?: FileReadState;
  /** The caller has already told (and recorded) the prompt's user_prompt, before its hooks ran: not told again. */
  promptTold?: boolean;
  /** Asked before each model call (the spending cap): a reason ends the run as `max_budget` instead. */
  refuseModelCall?: (next: { model: string; inputTokens: number }) => string | undefined;
  /** Auto mode's classifier: answers, in auto mode, the asks where containment ends. */
  classifier?: ActionClassifier;
}

export interface CompactionSettings {
  /** Compact when the estimated context (system + messages) passes this many tokens. */
  thresholdTokens: number;
  keepRecentResults?: number;
  /** Called after each compaction (episodic note, memory); the lines it returns are told in a notice. Errors become notices. */
  onCompacted?: (result: CompactionResult, trigger: 'auto' | 'manual') => Promise<string[] | void>;
}

/**
 * The agent loop: call the model, run the tools it asked for, feed the results back, repeat.
 * Must not throw: every failure ends in a `terminal` event whose history is valid
 * (every tool_use has a tool_result).
 */
export async function* query(params: QueryParams): AsyncGenerator<AgentEvent, void, undefined> {
  const maxTurns = params.maxTurns ?? DEFAULT_MAX_TURNS;
  const now = params.now ?? Date.now;
  const denials = params.denials ?? { consecutive: 0 };
  const maxTokens = params.maxTokens ?? DEFAULT_MAX_TOKENS;
  const readState = params.readState ?? createFileReadState();
  // An answer continued after the output limit is reported whole: the cut part, then the rest.
  let continuedFrom = '';
  let continued = false;
  let batchCounter = 0;
  let compactionRequest: { instructions?: string } | undefined;
  let messages: Message[] = [...params.messages];
  const end = (reason: TerminalReason, turns: number, error?: string): AgentEvent => {
    const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant');
    const result = lastAssistant ? continuedFrom + textOf(lastAssistant) : undefined;
    return {
      type: 'terminal',
      reason,
      turns,
      messages,
      ...(error !== undefined ? { error } : {}),
      ...(result ? { result } : {}),
    };
  };

  let stopBlocks = 0;
  if (params.prompt) {
    const prompt = yield* promptHooks(params.prompt, params.hooks, params.signal);
    // Blocked by a hook: the prompt never enters the history; the hook event says why.
    if (!prompt) return yield end('completed', 0);
    messages.push(prompt);
    const text = textOf(params.prompt);
    if (text && params.promptTold !== true) yield { type: 'user_prompt', text };
  }

  for (let turn = 1; ; turn++) {
    if (params.signal.aborted) return yield end('aborted', turn - 1);
    if (turn > maxTurns) return yield end('max_turns', turn - 1, `Stopped after ${maxTurns} turns (--max-turns).`);
    yield { type: 'turn_start', turn };

    const normalized = normalizeMessages(messages);
    for (const repair of normalized.repairs) yield notice('warning', `History repaired: ${repair}`, 'repair');
    messages = normalized.messages;

    // Asked before every request: a mode change, a team started or an MCP server connected shows in the next one.
    const offered = offeredTools(params.tools);
    let assistant: Message | undefined;
    let stopReason: string | null = null;
    try {
      const system = await params.system();
      const compaction = params.compaction;
      if (compaction) {
        const over = estimateRequestTokens(system, messages, params.provider) > compaction.thresholdTokens;
        if (over || compactionRequest) {
          const trigger = compactionRequest ? 'manual' : 'auto';
          const instructions = compactionRequest?.instructions;
          compactionRequest = undefined;
          const result = yield* runCompaction(messages, params, trigger, instructions);
          if (result) messages = result.messages;
        }
      }
      const sent = compaction ? microCompact(messages, compaction.keepRecentResults) : messages;
      const refused = params.refuseModelCall?.({ model: params.provider.model, inputTokens: estimateRequestTokens(system, sent, params.provider) });
      if (refused !== undefined) return yield end('max_budget', turn - 1, refused);
      const stream = params.provider.stream({
        model: params.provider.model,
        system,
        messages: withReminders(sent, (await params.reminders?.()) ?? []),
        tools: offered.map(toolSpec),
        maxTokens,
        signal: params.signal,
      });
      for await (const event of stream) {
        if (event.type === 'message') {
          assistant = event.message;
          stopReason = event.stopReason;
        }
        else if (event.type === 'usage') yield { type: 'usage', usage: event.usage, model: params.provider.model };
        else if (event.type === 'notice') yield notice(event.level, event.message, event.code);
        else yield event;
      }
    } catch (error) {
      if (params.signal.aborted || isAbortError(error)) return yield end('aborted', turn);
      yield* stopFailureHooks(params.hooks, errorMessage(error), '', params.agentName);
      return yield end('error', turn, errorMessage(error));
    }
    if (params.signal.aborted) return yield end('aborted', turn);
    if (!assistant) return yield end('error', turn, `${params.provider.name}: the model stream ended without a message`);

    messages = [...messages, assistant];
    yield { type: 'assistant', message: assistant };

    // The content decides whether tools run, not stop_reason: some gateways report it wrongly.
    const calls: ToolUseBlock[] = toolUsesOf(assistant);
    const cut = stopReason === 'max_tokens';
    if (calls.length === 0) {
      if (!cut) {
        const more = yield* stopHooks(params.hooks, { ...(params.agentName !== undefined ? { agentName: params.agentName } : {}), lastText: textOf(assistant), stopReason: stopReason ?? 'end_turn', blocksSoFar: stopBlocks, signal: params.signal });
        if (more === undefined) return yield end('completed', turn);
        stopBlocks++;
        messages = [...messages, userText(more)];
        continue;
      }
      if (!params.continueOnMaxTokens || continued) return yield end('max_tokens', turn, cutAtOutputLimit(maxTokens));
      continued = true;
      continuedFrom += textOf(assistant);
      yield notice('warning', `${cutAtOutputLimit(maxTokens)} Asking the model to continue it (continueOnMaxTokens).`, 'max_tokens');
      messages = [...messages, userText(CONTINUE_AFTER_CUT)];
      continue;
    }
    continuedFrom = '';
    if (cut) yield notice('warning', `${cutAtOutputLimit(maxTokens)} Its last tool call may be incomplete.`, 'max_tokens');

    const toolMap = new Map(params.tools.map((t) => [t.name, t]));
    const batches = partitionToolCalls(calls, toolMap);
    const halt: { reason?: string } = {};
    const results = yield* runToolBatches(batches, {
      tools: toolMap,
      permissions: params.permissions,
      ...(params.ask ? { ask: params.ask } : {}),
      cwd: params.cwd,
      signal: params.signal,
      concurrency: params.concurrency ?? DEFAULT_TOOL_CONCURRENCY,
      now,
      denials,
      ...(params.agentName !== undefined ? { agentName: params.agentName } : {}),
      nextBatchId: () => ++batchCounter,
      ...(params.hooks ? { hooks: params.hooks } : {}),
      readState,
      ...(params.refuseModelCall ? { refuseModelCall: params.refuseModelCall } : {}),
      ...(params.classifier ? { classifier: params.classifier } : {}),
      imageLimits: imageLimitsFor(params.provider),
      halt,
      requestCompaction: (instructions) => {
        compactionRequest = instructions !== undefined ? { instructions } : {};
      },
    });
    // PostToolBatch: once per batch of results, before the next model call; its text goes with them.
    const batch = yield* postToolBatchHooks(params.hooks, batchCalls(calls, results), params.signal, params.agentName);
    const note = batch.context !== undefined ? [{ type: 'text' as const, text: `<hook-context>\n${batch.context}\n</hook-context>` }] : [];
    messages = [...messages, { role: 'user', content: [...results, ...note] }];
    if (batch.stop !== undefined && !params.signal.aborted) {
      yield notice('warning', `${batch.stop.charAt(0).toUpperCase()}${batch.stop.slice(1)}`, 'hook');
      return yield end('completed', turn);
    }
    if (params.signal.aborted) {
      const interrupted = results.filter((r) => r.content === INTERRUPTED_BY_USER).length;
      if (interrupted > 0) yield notice('info', `Interrupted ${interrupted} tool call(s).`);
      return yield end('aborted', turn);
    }
    // A hook ended the turn (its notice said so): the results are kept, the model is not called again.
    if (halt.reason !== undefined) return yield end('completed', turn);
  }
}

/** Compacts the history, reporting the outcome as events. Returns undefined when nothing changed. */
export async function* runCompaction(
  messages: readonly Message[],
  params: Pick<QueryParams, 'provider' | 'signal' | 'compaction' | 'hooks'>,
  trigger: 'auto' | 'manual',
  instructions?: string,
): AsyncGenerator<AgentEvent, CompactionResult | undefined> {
  if (yield* preCompactHooks(params.hooks, trigger, instructions, params.signal)) {
    yield notice('info', 'Compaction skipped: a PreCompact hook blocked it.');
    return undefined;
  }
  let result: CompactionResult | undefined;
  try {
    result = await compactMessages({ messages, provider: params.provider, signal: params.signal, ...(instructions ? { instructions } : {}) });
  } catch (error) {
    if (params.signal.aborted) throw error;
    yield notice('error', `Compaction failed, continuing with the full history: ${errorMessage(error)}`);
    return undefined;
  }
  if (!result) {
    if (trigger === 'manual') yield notice('info', 'Nothing to compact yet: the conversation is a single exchange.');
    return undefined;
  }
  yield {
    type: 'compact',
    trigger,
    tokens_before: result.tokensBefore,
    tokens_after: result.tokensAfter,
    summary: result.summary,
    messages: result.messages,
  };
  if (result.droppedAttachments.length > 0) yield notice('info', droppedAttachmentsNotice(result.droppedAttachments));
  yield* postCompactHooks(params.hooks, trigger, result.summary, params.signal);
  try {
    const said = await params.compaction?.onCompacted?.(result, trigger);
    if (said && said.length > 0) yield notice('info', said.join('\n'));
  } catch (error) {
    yield notice('warning', `After compaction: ${errorMessage(error)}`);
  }
  return result;
}

/** The calls of a turn with the text of each result, for PostToolBatch's `tool_calls`. */
function batchCalls(calls: readonly ToolUseBlock[], results: readonly ToolResultBlock[]): { toolName: string; toolInput: unknown; toolUseId: string; toolResponse: string }[] {
  return calls.map((c) => {
    const r = results.find((x) => x.tool_use_id === c.id);
    const text = r === undefined ? '' : typeof r.content === 'string' ? r.content : r.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    return { toolName: c.name, toolInput: c.input, toolUseId: c.id, toolResponse: text };
  });
}

function withReminders(messages: Message[], reminders: readonly string[]): Message[] {
  const last = messages[messages.length - 1];
  if (reminders.length === 0 || last?.role !== 'user') return messages;
  const notes = reminders.map((r) => ({ type: 'text' as const, text: `<system-reminder>\n${r}\n</system-reminder>` }));
  return [...messages.slice(0, -1), { role: 'user', content: [...last.content, ...notes] }];
}
