// The shapes shared by the hook loader, the runner and the loop's hook points.

/** Events a hook can be attached to, in Claude Code's names. `.hooks.json`'s `RoundEnd` is `Stop`. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'Notification',
  'PostToolBatch',
  'InstructionsLoaded',
  'UserPromptExpansion',
  'WorktreeCreate',
  'WorktreeRemove',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Events whose matcher is a tool name (the others match a source, a trigger, or nothing). */
export const TOOL_EVENTS: readonly HookEventName[] = ['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure'];

/**
 * How a hook is run: a shell command; an HTTP POST of the input JSON to a URL (the response body is
 * the output); a prompt the model answers with {"ok": true} or {"ok": false, "reason": "..."}.
 */
export type HookHandler =
  | { type: 'command' }
  | { type: 'http'; url: string; headers: Readonly<Record<string, string>>; allowPrivate: boolean }
  | { type: 'prompt'; prompt: string; model?: string };

/**
 * claude: Claude Code's contract (exit 2 blocks, JSON on stdin and stdout, Claude Code's tool names);
 * cairn: `.hooks.json`'s (exit 1 blocks, exit 2 injects, HOOK_* variables, cairn's tool names).
 */
export type HookFormat = 'claude' | 'cairn';

export interface HookDefinition {
  event: HookEventName;
  /** Absent, "" or "*": every tool (or every source). */
  matcher?: string;
  /** The shell command; for an http hook its URL, for a prompt hook its prompt (what /hooks shows). */
  command: string;
  /** Absent: a command. */
  handler?: HookHandler;
  /** Where it came from for /hooks: "user settings", "project settings", "local settings", "plugin NAME". */
  origin?: string;
  /** Read from the user's own settings ($CAIRN_HOME, ~/.claude, --settings): not a project's or a plugin's. */
  userOwned?: boolean;
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
  /** An http or prompt hook that gave no answer (refused address, HTTP error, no model): the whole message. */
  failed?: string;
}

/** What one hook decided, in the runner's terms (both formats map to this). */
export interface HookOutcome {
  hook: HookDefinition;
  /** Stop the action (the tool call, the prompt, the compaction) or, at Stop, keep the model going; the text says why. */
  block?: string;
  /** PreToolUse's permission answer. */
  decision?: 'allow' | 'deny' | 'ask';
  decisionReason?: string;
  /** PermissionRequest: the answer to the permission prompt (an allow is honoured only where the user could have been asked). */
  permission?: { behavior: 'allow' | 'deny'; message?: string; interrupt?: boolean; updatedInput?: unknown; updatedPermissions?: unknown };
  /** suppressOutput: true: the hook's own lines are not shown (its decisions still apply). */
  suppressOutput?: boolean;
  /** PreToolUse: the new input, already in cairn's field names (validated again before use). */
  updatedInput?: unknown;
  /** WorktreeCreate: the path the hook printed (or `hookSpecificOutput.worktreePath`), unchecked. */
  worktreePath?: string;
  /** Text for the model (appended to the result or the prompt). */
  context?: string;
  /** PostToolUse: the text the model sees instead of the tool's output (`updatedToolOutput`). */
  updatedOutput?: string;
  /** PermissionDenied: `retry: true`, the model is told it may try the call again. */
  retry?: boolean;
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
  /** Notification; PermissionDenied: why it was denied. */
  message?: string;
  /** SubagentStart / SubagentStop (and every event inside a subagent): the subagent's type and id. */
  agentType?: string;
  agentId?: string;
  /** PermissionRequest: the rules an "always allow" answer would add. */
  permissionSuggestions?: string[];
  /** PostToolBatch: every call of the batch with the result the model is sent. */
  toolCalls?: { toolName: string; toolInput: unknown; toolUseId: string; toolResponse: string }[];
  /** InstructionsLoaded: the file, its scope (User, Project, Local, Managed); `source` is the load reason. */
  filePath?: string;
  memoryType?: string;
  /** UserPromptExpansion: the command typed (also the matcher's subject), its arguments, where it came from (`skill`, `plugin`, `command`, `builtin`); `prompt` is the expanded text. */
  commandName?: string;
  commandArgs?: string;
  commandSource?: string;
  /** WorktreeCreate: the worktree's name (a slug). */
  worktreeName?: string;
  /** WorktreeRemove: the worktree's absolute path. */
  worktreePath?: string;
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
