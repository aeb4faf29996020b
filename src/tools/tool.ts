import type { ActionClassifier } from '../permissions/auto/classifier.js';
import type * as z from 'zod';
import type { AgentEvent } from '../events.js';
import type { AskPermission } from '../permissions/ask.js';
import type { ToolDisplay } from './display.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { FileReadState } from './read-state.js';
import type { CallView } from './call-view.js';
import type { AttachmentBlock } from '../messages.js';
import type { ImageLimits } from '../attachments/image-limits.js';

/** What a tool may touch, so the permission chain can judge a call without knowing the tool. */
export type ToolKind = 'read' | 'edit' | 'execute' | 'other';

/**
 * What a tool call can change, named for what it means to the user:
 * - none: nothing (reads); runs without approval, in plan mode too;
 * - session: only cairn's own state for this session (todos, tasks, the conversation, messages to
 *   teammates, a subagent whose own calls are checked); no approval, in plan mode too;
 * - workspace: files in the workspace (the path rules, acceptEdits and protected paths apply);
 * - world: anything else (commands, processes, schedules, memory that every later session reads);
 *   asked unless a rule allows it.
 */
export type ToolEffects = 'none' | 'session' | 'workspace' | 'world';

/** A call's effects, failing closed. */
export function effectsOf(tool: { effects?(input: never): ToolEffects }, input: unknown): ToolEffects {
  return (tool.effects as ((input: unknown) => ToolEffects) | undefined)?.(input) ?? 'world';
}

/**
 * How a call came to run: the user said yes to it, or the permission chain let it through
 * unasked (a rule, a mode, a hook, or the read-only judgement). A command that runs unasked runs
 * inside the OS sandbox where there is one; one judged read-only runs where nothing can be written.
 */
export interface CallApproval {
  byUser: boolean;
  /** Auto mode's classifier approved the call (where containment ends): like a yes, never the user's. */
  byClassifier?: boolean;
  /** The chain judged the call read-only (no writes, nothing run but reading programs). */
  readOnly: boolean;
}

/** What a tool assumes when the loop does not say: run unasked, not known to be read-only (contained the most it can be without breaking writes). */
export const UNASKED: CallApproval = { byUser: false, readOnly: false };

export interface ToolContext {
  /** The workspace root (the directory cairn was started in), already resolved through symlinks. */
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Live output for the UI, each piece appended to the last (bash sends whole lines, newline included). Never part of the result. */
  readonly onProgress?: (text: string) => void;
  /** Asks the loop to compact the history before the next model call (the `compact` tool). */
  readonly requestCompaction?: (instructions?: string) => void;
  /** The id of the tool_use being run (subagents nest their events under it). */
  readonly toolUseId?: string;
  /** Events a tool raises itself (a subagent's events, a todo update). */
  readonly emit?: (event: AgentEvent) => void;
  /** The ask channel of the run, if any: subagents route their approvals to it. */
  readonly ask?: AskPermission;
  /** The subagent or teammate whose call this is, shown on what it asks the user; absent: the main agent. */
  readonly agentName?: string;
  /**
   * Whether a Read deny rule covers this absolute path. Tools that list or print many files (grep, glob)
   * leave covered files out; absent means no rule applies (tests, subagents without rules).
   */
  readonly isReadDenied?: (absPath: string) => boolean;
  /** The session's hooks, which a subagent's own loop runs too. */
  readonly hooks?: HookRunner;
  /** How this call came to run; absent: UNASKED. */
  readonly approval?: CallApproval;
  /** The files this agent's model has read (read_file records, edit_file and write_file check); absent: no read is required. */
  readonly readState?: FileReadState;
  /** The spending cap's check before a model call, which a subagent's loop makes too. */
  readonly refuseModelCall?: (next: { model: string; inputTokens: number }) => string | undefined;
  /** Auto mode's classifier, which a subagent's loop asks too. */
  readonly classifier?: ActionClassifier;
  /** How large an image the provider takes (attachments/image-limits.ts); absent: Anthropic's, the stricter. */
  readonly imageLimits?: ImageLimits;
}

export interface ToolResult {
  content: string;
  isError?: boolean;
  /** Structured extras for renderers (diff, line range), typed per tool (see display.ts). */
  display?: ToolDisplay;
  /** Images and PDFs sent to the model with the text (read_file on a picture); the text says what they are. */
  attachments?: AttachmentBlock[];
}

export interface Tool<I = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<I>;
  readonly kind: ToolKind;
  /**
   * What a call can change, which decides whether it needs approval (see ToolEffects).
   * Fail closed: absent means 'world'.
   */
  effects?(input: I): ToolEffects;
  /**
   * The call exists to ask the user something (exit_plan_mode): in plan mode it is always asked,
   * unless a rule allows it, and the answer may switch the permission mode.
   */
  readonly asksUser?: boolean;
  /**
   * Why this tool is not offered to the model right now (exit_plan_mode outside plan mode, the lead's
   * team tools before there is a team), or undefined when it is. Asked before every request, so the
   * list follows mode changes; a call to it meanwhile gets this reason. Absent: always offered.
   */
  unavailable?(): string | undefined;
  /**
   * How a call is shown (see call-view.ts): its title on the card, the scrollback and the page, and
   * what an approval of it is about. Absent: the generic view (the first text argument, the raw
   * input), as for MCP tools. Must not throw.
   */
  describe?(input: I): CallView;
  /** Fail closed: absent means the call runs alone. */
  isConcurrencySafe?(input: I): boolean;
  /** Paths the call touches (as given; the permission chain resolves them against the workspace). */
  paths?(input: I): string[];
  /** The URL a call fetches, for `WebFetch(domain:...)` rules. */
  url?(input: I): string;
  /** The shell command a call runs, for bash rules and the safety check; undefined for a call that runs none (monitor watching a shell bash started). */
  command?(input: I): string | undefined;
  /**
   * Another tool whose rules also judge this tool's commands, and in whose name an "always allow"
   * is saved: monitor's command is bash's (`Bash(...)` deny, ask and allow rules apply to it).
   * Rules naming this tool itself still apply too.
   */
  readonly commandRulesOf?: string;
  /**
   * What a `Tool(specifier)` rule is matched against when the call has no paths or command (an
   * agent's type for `Agent(Explore)`, a skill's name). Absent: a scoped deny or ask rule naming
   * the tool applies to every call (cairn cannot tell), a scoped allow rule to none.
   */
  ruleSubject?(input: I): string;
  /**
   * The call runs inside the operating-system sandbox and `sandbox.autoAllowBashIfSandboxed` is on:
   * it needs no approval unless a deny or ask rule, a built-in deny or the dangerous-command check
   * says otherwise. Absent: false.
   */
  sandboxAutoAllows?(input: I): boolean;
  /**
   * The call must be put to the user whatever the rules and the mode say (a command to run outside
   * the sandbox): the reason shown, or undefined. Deny rules and plan mode still deny it; with no
   * one to ask it is denied.
   */
  alwaysAsks?(input: I): string | undefined;
  /**
   * alwaysAsks' question is where containment ends (leaving the sandbox), so in auto mode the
   * classifier may answer it instead of the user. Unset for tools whose purpose is a question for the user.
   */
  classifierMayAnswer?: boolean;
  /**
   * What the call changes decides what runs later (memory that enters every prompt, a scheduled
   * prompt), as a protected path does: in auto mode only the user approves it, never the classifier.
   */
  onlyTheUserApproves?: boolean;
  /**
   * A reason to refuse the call before the user is asked to approve it (edit_file on a file not
   * read, or changed since): the result the model gets, or undefined. Must not throw.
   */
  refuse?(input: I, ctx: ToolContext): Promise<string | undefined>;
  /** A preview for the approval prompt (a diff for edits). Must not throw; may return undefined. */
  preview?(input: I, ctx: ToolContext): Promise<string | undefined>;
  /** Must not throw: failures are results with isError. The loop still guards against a throw. */
  call(input: I, ctx: ToolContext): Promise<ToolResult>;
}

// Tools are stored heterogeneously; the loop validates input with inputSchema before any call.
// Tool<unknown> holds every tool because its input-taking members are methods (checked bivariantly).
export type AnyTool = Tool<unknown>;

export function defineTool<I>(tool: Tool<I>): Tool<I> {
  return tool;
}

/** The tools the model is offered in the next request, in their order (see Tool.unavailable). */
export function offeredTools(tools: readonly AnyTool[]): AnyTool[] {
  return tools.filter((t) => t.unavailable?.() === undefined);
}

/** The same tool, offered only while `why` returns undefined. */
export function offeredWhile(tool: AnyTool, why: () => string | undefined): AnyTool {
  return Object.create(tool, { unavailable: { value: why, enumerable: true } }) as AnyTool;
}
