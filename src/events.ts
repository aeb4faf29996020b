import * as z from 'zod';
import { AttachmentBlockSchema, MessageSchema } from './messages.js';
import { CallViewSchema } from './tools/call-view.js';
import { parseToolDisplay, type ToolDisplay } from './tools/display.js';
import { UsageSchema } from './usage.js';

// Every event the engine emits, declared once. The TUI reducer, the headless printer
// and the session file all consume this union; nothing else leaves the engine.

export const PermissionModeSchema = z.enum(['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions', 'dontAsk']);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

// max_tokens: the model's answer was cut at the output limit; the turn did not complete.
export const TerminalReasonSchema = z.enum(['completed', 'max_turns', 'max_tokens', 'max_budget', 'aborted', 'error']);
export type TerminalReason = z.infer<typeof TerminalReasonSchema>;

export const NoticeLevelSchema = z.enum(['info', 'warning', 'error']);
export type NoticeLevel = z.infer<typeof NoticeLevelSchema>;

export const TodoItemSchema = z.object({
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string(),
});
export type TodoItem = z.infer<typeof TodoItemSchema>;

// A child agent's event, wrapped once per level: `parent_id` is the tool_use id of the `agent`
// call that started it, so the UI nests the child's cards inside that card.
const SubagentEvent = z.object({
  type: z.literal('subagent'),
  parent_id: z.string(),
  agent_type: z.string(),
  depth: z.number(),
  get event(): z.ZodType<AgentEvent> {
    return AgentEventSchema;
  },
});

// Every other event, each declared once here: the schema union and the TypeScript type come from this list.
const BASE_EVENTS = [
  z.object({
    type: z.literal('session_start'),
    provider: z.string(),
    model: z.string(),
    cwd: z.string(),
    permission_mode: PermissionModeSchema,
    tools: z.array(z.string()),
    offline: z.boolean(),
    // The id `cairn --resume` takes, so a script can continue the session.
    session_id: z.string().optional(),
    // The spending cap in force (maxBudgetUsd, --max-budget-usd), for the status row.
    max_budget_usd: z.number().optional(),
    // The model's context window in tokens (the context bar's limit); a later session_start (after /model) carries the new model's.
    context_window: z.number().int().positive().optional(),
  }),
  // attachments: the images and PDFs sent with the prompt (by reference in session files, session-blobs.ts).
  z.object({ type: z.literal('user_prompt'), text: z.string(), attachments: z.array(AttachmentBlockSchema).optional() }),
  z.object({ type: z.literal('turn_start'), turn: z.number() }),
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  z.object({ type: z.literal('thinking_delta'), text: z.string() }),
  z.object({ type: z.literal('assistant'), message: MessageSchema }),
  z.object({
    type: z.literal('tool_start'),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
    parallel: z.boolean(),
    batch: z.number(),
    // How the call is shown (its title, what it is about); absent in sessions recorded before views, dropped if malformed.
    view: CallViewSchema.optional().catch(undefined),
  }),
  z.object({
    type: z.literal('tool_progress'),
    id: z.string(),
    name: z.string(),
    content: z.string(),
  }),
  z
    .object({
      type: z.literal('tool_result'),
      id: z.string(),
      name: z.string(),
      content: z.string(),
      is_error: z.boolean(),
      duration_ms: z.number(),
      // Images and PDFs the tool sent to the model with its text (read_file on a picture).
      attachments: z.array(AttachmentBlockSchema).optional(),
      // Structured extras for renderers (a diff, the line range read); never needed to understand the result.
      display: z.unknown().optional(),
    })
    // A recorded display that fits no tool's shape is dropped here, not the whole event (see parseToolDisplay).
    .transform(({ display, ...event }): typeof event & { display?: ToolDisplay } => {
      const parsed = display === undefined ? undefined : parseToolDisplay(event.name, display);
      return parsed ? { ...event, display: parsed } : event;
    }),
  z.object({
    type: z.literal('permission_request'),
    id: z.string(),
    // This ask's own id, which its answer names: a tool_use id is unique only within one agent's
    // history, and parallel subagents ask on the same channel.
    request_id: z.string().optional(),
    name: z.string(),
    input: z.unknown(),
    reason: z.string(),
    // Rules an "always allow" answer would add, one per part for compound commands.
    suggestions: z.array(z.string()),
    // The same rules for the file's whole folder, offered as a second "always" choice (f).
    folder: z.array(z.string()).optional(),
    preview: z.string().optional(),
    agent: z.string().optional(),
    view: CallViewSchema.optional().catch(undefined),
  }),
  z.object({
    type: z.literal('permission_denied'),
    id: z.string(),
    name: z.string(),
    reason: z.string(),
  }),
  // Every permission decision and what made it (the decision log): `by` a rule (`rule` as written,
  // `file` and `line` where it stands, or the flag in `where`), a built-in deny, the mode, the sandbox,
  // the classifier, a hook, the user (`answer`), or cairn's own analysis; `input` is a one-line summary.
  z.object({
    type: z.literal('permission_decision'),
    id: z.string(),
    name: z.string(),
    input: z.string(),
    verdict: z.enum(['allow', 'deny']),
    by: z.enum(['rule', 'builtin', 'mode', 'sandbox', 'classifier', 'hook', 'user', 'cairn']),
    reason: z.string(),
    mode: PermissionModeSchema,
    rule: z.string().optional(),
    where: z.string().optional(),
    file: z.string().optional(),
    line: z.number().optional(),
    answer: z.string().optional(),
    agent: z.string().optional(),
  }),
  // for: a call that is not the agent's own, counted and priced but never taken for the context window's size:
  // 'classifier' auto mode's classifier, 'side_question' a /btw question.
  z.object({ type: z.literal('usage'), usage: UsageSchema, model: z.string().optional(), for: z.enum(['classifier', 'side_question']).optional() }),
  z.object({
    type: z.literal('notice'),
    level: NoticeLevelSchema,
    message: z.string(),
    // Machine-readable kind: 'retry' tells consumers to drop the partial stream of the failed attempt.
    code: z.string().optional(),
  }),
  z.object({ type: z.literal('mode_change'), mode: PermissionModeSchema }),
  // /clear: the conversation starts again from nothing; history above this line is not carried on.
  z.object({ type: z.literal('clear') }),
  // Compaction replaced the history: `messages` is the new history (a summary plus the verbatim
  // tail); the full history before it stays in the session file above this line.
  z.object({
    type: z.literal('compact'),
    trigger: z.enum(['auto', 'manual']),
    tokens_before: z.number(),
    tokens_after: z.number(),
    summary: z.string(),
    messages: z.array(MessageSchema),
  }),
  // Rewind: the conversation went back to just before an earlier prompt. `messages` is the history
  // now; the last `dropped_prompts` prompts (and all that followed them) leave the transcript.
  z.object({ type: z.literal('rewind'), messages: z.array(MessageSchema), dropped_prompts: z.number().int().positive() }),
  z.object({ type: z.literal('todos'), todos: z.array(TodoItemSchema) }),
  // A plan the user approved (exit_plan_mode): pinned above the prompt, kept in the session file
  // (resume restores it) and shown again by /plan. `mode`: the permission mode chosen to carry it out in.
  z.object({ type: z.literal('plan_approved'), plan: z.string(), mode: PermissionModeSchema.optional() }),
  z.object({
    type: z.literal('cron'),
    task_id: z.string(),
    schedule: z.string(),
    prompt: z.string(),
    status: z.enum(['created', 'deleted', 'fired', 'missed', 'auto_run_finished']),
    result: z.string().optional(),
  }),
  // A cron task's auto run: a background subagent outside any turn, with a card of its own.
  // Its subagent events arrive wrapped with parent_id = run_id.
  z.object({
    type: z.literal('auto_run'),
    run_id: z.string(),
    task_id: z.string(),
    prompt: z.string(),
    status: z.enum(['started', 'finished', 'failed', 'cancelled']),
    result: z.string().optional(),
    duration_ms: z.number().optional(),
  }),
  // A subagent the lead started with run_in_background (src/agents/background-agents.ts): `running`
  // opens its card (`task` is what it was asked), its loop's events arrive wrapped with parent_id =
  // id, and the end closes the card with `result` (its report, which also reaches the lead's next
  // request).
  z.object({
    type: z.literal('background_agent'),
    id: z.string(),
    agent_type: z.string(),
    description: z.string(),
    status: z.enum(['running', 'completed', 'failed', 'stopped']),
    task: z.string().optional(),
    result: z.string().optional(),
    duration_ms: z.number().optional(),
  }),
  z.object({
    type: z.literal('background_shell'),
    id: z.string(),
    command: z.string(),
    status: z.enum(['running', 'completed', 'failed', 'killed']),
    exit_code: z.number().optional(),
  }),
  // A watch on a background shell's output (the monitor tool, src/shells/shell-watches.ts):
  // `watching` when it starts, `lines` for each delivery of new (matching) lines to the model,
  // `ended` once when the shell has ended (with its exit code and the last lines), `stopped` when
  // the model or the user stopped watching or the pattern ran away. `dropped` counts lines left
  // out by the rate limit since the previous delivery. A watch monitor started ({command}) owns
  // its command: `stopped` stops that too; `cause` says when cairn stopped it itself (`timeout`:
  // its timeout_ms expired; `flood`: it printed more than can be delivered for too long).
  z.object({
    type: z.literal('shell_watch'),
    shell_id: z.string(),
    command: z.string(),
    status: z.enum(['watching', 'lines', 'ended', 'stopped']),
    pattern: z.string().optional(),
    lines: z.array(z.string()).optional(),
    dropped: z.number().int().nonnegative().optional(),
    exit_code: z.number().optional(),
    reason: z.string().optional(),
    cause: z.enum(['timeout', 'flood']).optional(),
  }),
  // A teammate's news. A stretch of its work is a `run_id`: `status: working` with it opens the
  // teammate's card (`text` is what it was asked), its loop's events arrive wrapped as subagent
  // events with parent_id = run_id, and `idle` or `stopped` with it closes the card (`text` is its
  // last reply; `failed` when the stretch ended in an error or out of turns).
  z.object({
    type: z.literal('team'),
    kind: z.enum(['spawned', 'status', 'message']),
    name: z.string(),
    status: z.enum(['working', 'idle', 'stopped']).optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    text: z.string().optional(),
    run_id: z.string().optional(),
    agent_type: z.string().optional(),
    failed: z.boolean().optional(),
  }),
  // What a hook did that someone should see: blocked a call or prompt (why), injected text for the
  // model (what), rewrote a tool input, showed a message, or failed (it then decides nothing).
  // `tool_id` places it under its tool card; `source` is the file the hook was read from.
  z.object({
    type: z.literal('hook'),
    hook_event: z.string(),
    outcome: z.enum(['blocked', 'injected', 'updated', 'message', 'stopped', 'error']),
    text: z.string(),
    source: z.string(),
    command: z.string(),
    tool_id: z.string().optional(),
    tool_name: z.string().optional(),
  }),
  // The MCP servers' states, sent whenever one changes (src/mcp/): the status bar counts them.
  z.object({
    type: z.literal('mcp_servers'),
    servers: z.array(z.object({ name: z.string(), state: z.enum(['pending', 'disabled', 'connecting', 'connected', 'failed']), tools: z.number(), error: z.string().optional() })),
  }),
  // A command the user ran with `!` at the prompt (no model, no approval): 'running' when it starts,
  // 'done' with its output; the done one becomes a user message the model sees next request.
  z.object({
    type: z.literal('shell_command'),
    id: z.string(),
    command: z.string(),
    status: z.enum(['running', 'done']),
    output: z.string().optional(),
    exit_code: z.number().nullable().optional(),
    problem: z.string().optional(),
    duration_ms: z.number().optional(),
  }),
  z.object({
    type: z.literal('terminal'),
    reason: TerminalReasonSchema,
    turns: z.number(),
    messages: z.array(MessageSchema),
    error: z.string().optional(),
    result: z.string().optional(),
  }),
] as const;

export const AgentEventSchema: z.ZodType<AgentEvent> = z.discriminatedUnion('type', [...BASE_EVENTS, SubagentEvent]);

type BaseEvent = z.output<(typeof BASE_EVENTS)[number]>;

export interface SubagentEnvelope {
  type: 'subagent';
  parent_id: string;
  agent_type: string;
  depth: number;
  event: AgentEvent;
}

export type AgentEvent = BaseEvent | SubagentEnvelope;
export type AgentEventType = AgentEvent['type'];
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

export function notice(level: NoticeLevel, message: string, code?: string): EventOf<'notice'> {
  return code === undefined ? { type: 'notice', level, message } : { type: 'notice', level, message, code };
}
