// The shapes shared by the hook loader, the runner and the loop's hook points.

/** Events a hook can be attached to, in Claude Code's names. `.hooks.json`'s `RoundEnd` is `Stop`. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Events whose matcher is a tool name (the others match a source, a trigger, or nothing). */
export const TOOL_EVENTS: readonly HookEventName[] = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];

/**
 * claude: Claude Code's contract (exit 2 blocks, JSON on stdin and stdout, Claude Code's tool names);
 * cairn: `.hooks.json`'s (exit 1 blocks, exit 2 injects, HOOK_* variables, cairn's tool names).
 */
export type HookFormat = 'claude' | 'cairn';

export interface HookDefinition {
  event: HookEventName;
  /** Absent, "" or "*": every tool (or every source). */
  matcher?: string;
  command: string;
  timeoutMs: number;
  format: HookFormat;
  /** The file it was read from. */
  source: string;
  /** Where in that file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  key: string;
  /** Variables the command runs with besides the session's: a plugin's `CLAUDE_PLUGIN_ROOT`. */
  env?: Readonly<Record<string, string>>;
}

export const DEFAULT_TIMEOUT_MS: Record<HookFormat, number> = { claude: 60_000, cairn: 30_000 };

/** What a finished hook process left. */
export interface HookProcessResult {
  /** null when it was killed (timeout, abort) or never started. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the command could not be started. */
  spawnError?: string;
}

/** What one hook decided, in the runner's terms (both formats map to this). */
export interface HookOutcome {
  hook: HookDefinition;
  /** Stop the action (the tool call, the prompt, the compaction) or, at Stop, keep the model going; the text says why. */
  block?: string;
  /** PreToolUse's permission answer. */
  decision?: 'allow' | 'deny' | 'ask';
  decisionReason?: string;
  /** PreToolUse: the new input, already in cairn's field names (validated again before use). */
  updatedInput?: unknown;
  /** Text for the model (appended to the result or the prompt). */
  context?: string;
  /** `continue: false`: end the turn; the text is for the user. */
  stop?: string;
  /** Shown to the user only. */
  message?: string;
  /** The hook failed (crash, timeout, garbage): shown to the user, decides nothing. */
  error?: string;
}

/** What the loop hands a hook: the event and its fields, in cairn's names. */
export interface HookInput {
  event: HookEventName;
  /** cairn's tool name, for tool events. */
  toolName?: string;
  toolInput?: unknown;
  toolUseId?: string;
  /** PostToolUse: the tool's result text. */
  toolResponse?: string;
  /** PostToolUseFailure: the error result's text. */
  error?: string;
  /** UserPromptSubmit. */
  prompt?: string;
  /** SessionStart: startup|resume|clear|compact; SessionEnd: its reason; PreCompact: manual|auto; Notification: its type (permission_prompt|idle_prompt). */
  source?: string;
  /** Stop / SubagentStop. */
  stopHookActive?: boolean;
  lastAssistantMessage?: string;
  stopReason?: string;
  /** PreCompact. */
  customInstructions?: string;
  /** Notification. */
  message?: string;
}

/** Every hook that ran for one event, in definition order. */
export interface HookRun {
  outcomes: HookOutcome[];
}

/** The hook runner as the engine sees it: injected, never global. */
export interface HookRunner {
  /** Runs the hooks matching the input in parallel; never throws. */
  run(input: HookInput, signal?: AbortSignal): Promise<HookRun>;
  /** Whether any enabled hook would run for this event (and tool name, or source), so the loop can skip work. */
  has(event: HookEventName, subject?: string): boolean;
  /** Text SessionStart hooks gave the model, taken once by the next prompt. */
  takeContext?(): string[];
}
