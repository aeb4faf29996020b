// One runner for both hook formats: finds the hooks matching an event, runs them in parallel (each
// with its own timeout), and reads what each decided. It never throws: a hook that fails is an
// outcome with an error, which the loop shows the user with the hook's source file.
import { claudeToolName, toClaudeInput } from './claude-tool-names.js';
import { compileMatcher } from './hook-matcher.js';
import { interpretHook } from './hook-output.js';
import { TOOL_EVENTS, type HookDefinition, type HookEventName, type HookInput, type HookOutcome, type HookRun, type HookRunner } from './hook-types.js';
import { spawnHook } from './spawn-hook.js';
import { postHook } from './http-hook.js';
import { askPromptHook } from './prompt-hook.js';
import type { ModelProvider } from '../providers/provider.js';

export interface HookRunnerOptions {
  /** The hooks in force, read on every run (so /hooks reload and off apply at once). */
  hooks: () => readonly HookDefinition[];
  /** The workspace root: the hooks' cwd and $CLAUDE_PROJECT_DIR. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  sessionId?: string;
  transcriptPath?: () => string | undefined;
  permissionMode?: () => string;
  /** The provider prompt hooks ask (a model name given: that model); undefined: prompt hooks fail with a notice. */
  model?: (name?: string) => ModelProvider | undefined;
}

const AGENT_EVENTS: readonly HookEventName[] = ['SubagentStart', 'SubagentStop'];

/** What an event's matcher is tested against: the tool, the subagent's type, or the source/trigger/reason. */
function subjectOf(input: HookInput): string | undefined {
  if (TOOL_EVENTS.includes(input.event)) return input.toolName;
  if (AGENT_EVENTS.includes(input.event)) return input.agentType;
  if (input.event === 'UserPromptExpansion') return input.commandName;
  return input.source;
}

function matches(hook: HookDefinition, input: HookInput): boolean {
  if (hook.event !== input.event) return false;
  const isTool = TOOL_EVENTS.includes(input.event);
  const subject = subjectOf(input);
  // Events without a subject (Stop, UserPromptSubmit) ignore the matcher, as in Claude Code.
  if (subject === undefined) return true;
  try {
    return compileMatcher(hook.matcher)(subject, isTool);
  } catch {
    return false; // reported when the file was loaded; an invalid matcher matches nothing
  }
}

/** The JSON on a hook's stdin: Claude Code's fields, with its tool names for Claude Code's format. */
export function hookStdin(hook: HookDefinition, input: HookInput, opts: HookRunnerOptions): Record<string, unknown> {
  const claude = hook.format === 'claude';
  const tool = input.toolName;
  const fields: Record<string, unknown> = {
    session_id: opts.sessionId ?? '',
    transcript_path: opts.transcriptPath?.() ?? '',
    cwd: opts.cwd,
    permission_mode: opts.permissionMode?.() ?? 'default',
    hook_event_name: input.event,
    tool_name: tool === undefined ? undefined : claude ? claudeToolName(tool) : tool,
    tool_input: tool === undefined ? undefined : claude ? toClaudeInput(tool, input.toolInput, opts.cwd) : input.toolInput,
    // PermissionRequest has no tool_use_id in Claude Code; it has the suggestions instead.
    tool_use_id: input.event === 'PermissionRequest' ? undefined : input.toolUseId,
    permission_suggestions: input.permissionSuggestions?.map((rule) => ({ type: 'addRules', rules: [rule], behavior: 'allow', destination: 'session' })),
    tool_response: input.toolResponse,
    // StopFailure: `error` is the kind (rate_limit, server_error, ...), `error_details` the message.
    error: input.event === 'StopFailure' ? input.source : input.error,
    error_details: input.event === 'StopFailure' ? input.error : undefined,
    // Hooks do not run on a call the user interrupted, so a failure reaching one never is.
    is_interrupt: input.event === 'PostToolUseFailure' ? false : undefined,
    prompt: input.prompt,
    source: input.event === 'SessionStart' ? input.source : undefined,
    trigger: input.event === 'PreCompact' || input.event === 'PostCompact' ? input.source : undefined,
    custom_instructions: input.customInstructions,
    compact_summary: input.event === 'PostCompact' ? input.message : undefined,
    stop_hook_active: input.stopHookActive,
    last_assistant_message: input.lastAssistantMessage,
    message: input.event === 'PermissionDenied' ? undefined : input.message,
    reason: input.event === 'SessionEnd' ? input.source : input.event === 'PermissionDenied' ? input.message : undefined,
    notification_type: input.event === 'Notification' ? input.source : undefined,
    agent_id: input.agentId,
    agent_type: input.agentType,
    tool_calls: input.toolCalls?.map((c) => ({
      tool_name: claude ? claudeToolName(c.toolName) : c.toolName,
      tool_input: claude ? toClaudeInput(c.toolName, c.toolInput, opts.cwd) : c.toolInput,
      tool_use_id: c.toolUseId,
      tool_response: c.toolResponse,
    })),
    file_path: input.filePath,
    memory_type: input.memoryType,
    load_reason: input.event === 'InstructionsLoaded' ? input.source : undefined,
    expansion_type: input.event === 'UserPromptExpansion' ? 'slash_command' : undefined,
    command_name: input.commandName,
    command_args: input.event === 'UserPromptExpansion' ? (input.commandArgs ?? '') : undefined,
    command_source: input.commandSource,
    name: input.worktreeName,
    worktree_path: input.worktreePath,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** `.hooks.json`'s variables; RoundEnd's tool input is the stop reason and the last text. */
function cairnEnv(input: HookInput): Record<string, string> {
  const roundEnd = input.event === 'Stop' || input.event === 'SubagentStop';
  const toolInput = roundEnd ? { stop_reason: input.stopReason ?? 'end_turn', last_assistant_text: input.lastAssistantMessage ?? '' } : input.toolInput ?? {};
  return {
    HOOK_EVENT: input.event === 'Stop' ? 'RoundEnd' : input.event,
    HOOK_TOOL_NAME: input.toolName ?? '',
    HOOK_TOOL_INPUT: JSON.stringify(toolInput),
    ...(input.event === 'PostToolUse' ? { HOOK_TOOL_OUTPUT: input.toolResponse ?? '' } : {}),
  };
}

export function createHookRunner(opts: HookRunnerOptions): HookRunner {
  const matching = (input: HookInput): HookDefinition[] => {
    const seen = new Set<string>();
    // The same command attached twice (user and project files) runs once.
    return opts.hooks().filter((h) => {
      if (!matches(h, input)) return false;
      // The same command of two plugins runs in each one's folder: both run.
      const id = `${h.format}\0${h.command}\0${h.env?.['CLAUDE_PLUGIN_ROOT'] ?? ''}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  };
  const runOne = async (hook: HookDefinition, input: HookInput, signal?: AbortSignal): Promise<HookOutcome> => {
    const env: NodeJS.ProcessEnv = {
      ...opts.env,
      CLAUDE_PROJECT_DIR: opts.cwd,
      CAIRN_PROJECT_DIR: opts.cwd,
      ...(hook.format === 'cairn' ? cairnEnv(input) : {}),
      ...hook.env,
    };
    const stdin = JSON.stringify(hookStdin(hook, input, opts));
    const handler = hook.handler;
    const on = signal ? { signal } : {};
    const result =
      handler?.type === 'http'
        ? await postHook({ handler, body: stdin, timeoutMs: hook.timeoutMs, env, ...on })
        : handler?.type === 'prompt'
          ? await askPromptHook({ handler, input: stdin, timeoutMs: hook.timeoutMs, provider: () => opts.model?.(handler.model), ...on })
          : await spawnHook({ command: hook.command, cwd: opts.cwd, env, stdin, timeoutMs: hook.timeoutMs, ...on });
    return interpretHook(hook, input, result);
  };
  return {
    has: (event: HookEventName, subject?: string) => {
      const key = TOOL_EVENTS.includes(event) ? 'toolName' : AGENT_EVENTS.includes(event) ? 'agentType' : event === 'UserPromptExpansion' ? 'commandName' : 'source';
      return matching({ event, ...(subject !== undefined ? { [key]: subject } : {}) }).length > 0;
    },
    async run(input, signal): Promise<HookRun> {
      const hooks = matching(input);
      const outcomes = await Promise.all(hooks.map((h) => runOne(h, input, signal)));
      return { outcomes };
    },
  };
}
