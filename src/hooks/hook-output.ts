// Turns what a hook process left (exit code, stdout, stderr) into a decision, by its format's rules.
// Claude Code's: 0 success (stdout JSON read when it starts with "{"), 2 block with stderr, other
// codes a non-blocking error. `.hooks.json`'s: 0 continue, 1 block (PreToolUse and UserPromptSubmit
// only), 2 inject stderr. A hook that times out, crashes or prints garbage decides nothing.
import { fromClaudeInput } from './claude-tool-names.js';
import type { HookDefinition, HookEventName, HookInput, HookOutcome, HookProcessResult } from './hook-types.js';

/** Claude Code caps the strings a hook returns. */
const MAX_TEXT = 10_000;

// PostToolUseFailure's exit 2 cannot undo the failure; its stderr goes to the model, as PostToolUse's.
const CLAUDE_BLOCKABLE: readonly HookEventName[] = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'UserPromptExpansion', 'Stop', 'SubagentStop', 'PreCompact', 'PostToolBatch'];
const CAIRN_BLOCKABLE: readonly HookEventName[] = ['PreToolUse', 'UserPromptSubmit'];
/** Plain stdout of a successful Claude Code hook becomes model context only for these. */
const PLAIN_TEXT_CONTEXT: readonly HookEventName[] = ['UserPromptSubmit', 'UserPromptExpansion', 'SessionStart'];

function cap(text: string): string {
  const t = text.trim();
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}…` : t;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? cap(value) : undefined;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

type JsonRead = { json?: Record<string, unknown>; error?: string };

function readJson(stdout: string): JsonRead {
  const text = stdout.trim();
  if (!text.startsWith('{')) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? { json: value } : { error: 'printed JSON that is not an object' };
  } catch {
    return { error: `printed output that is not valid JSON: ${firstLine(text)}` };
  }
}

/** Applies the JSON fields both formats share, and Claude Code's others. */
function applyJson(out: HookOutcome, json: Record<string, unknown>, input: HookInput): void {
  const hook = out.hook;
  const specific = isRecord(json['hookSpecificOutput']) ? json['hookSpecificOutput'] : {};
  if (json['continue'] === false) out.stop = str(json['stopReason']) ?? `stopped by a hook (${hook.source})`;
  const system = str(json['systemMessage']);
  if (system) out.message = system;
  const context = str(specific['additionalContext']) ?? str(json['additionalContext']);
  if (context) out.context = context;
  if (json['suppressOutput'] === true) out.suppressOutput = true;
  if (input.event === 'PermissionRequest') applyPermissionAnswer(out, specific['decision'], input);
  if (input.event === 'PermissionDenied' && specific['retry'] === true) out.retry = true;
  if (input.event === 'PostToolUse') applyUpdatedOutput(out, specific['updatedToolOutput'] ?? specific['updatedMCPToolOutput'], input);
  if (json['decision'] === 'block') out.block = str(json['reason']) ?? `blocked by a hook (${hook.source})`;
  if (input.event === 'PreToolUse') {
    const decision = specific['permissionDecision'] ?? (json['decision'] === 'approve' ? 'allow' : undefined);
    if (decision === 'allow' || decision === 'deny' || decision === 'ask') {
      out.decision = decision;
      const reason = str(specific['permissionDecisionReason']) ?? str(json['reason']);
      if (reason) out.decisionReason = reason;
    } else if (decision !== undefined) {
      out.error = `returned an unknown permissionDecision ${JSON.stringify(decision)} (allow, deny or ask)`;
    }
    const updated = specific['updatedInput'] ?? json['updatedInput'];
    if (updated !== undefined) {
      if (!isRecord(updated)) out.error = 'returned an updatedInput that is not an object';
      else out.updatedInput = hook.format === 'claude' && input.toolName ? fromClaudeInput(input.toolName, updated) : updated;
    }
  }
}

/**
 * PermissionRequest's `hookSpecificOutput.decision: {behavior: allow|deny, updatedInput, message, interrupt}`.
 * updatedInput counts with allow only, interrupt with deny only (as documented).
 */
function applyPermissionAnswer(out: HookOutcome, decision: unknown, input: HookInput): void {
  if (decision === undefined) return;
  if (!isRecord(decision) || (decision['behavior'] !== 'allow' && decision['behavior'] !== 'deny')) {
    out.error = `returned a decision that is not {behavior: "allow"|"deny"}: ${firstLine(JSON.stringify(decision) ?? '')}`;
    return;
  }
  const behavior = decision['behavior'];
  const message = str(decision['message']);
  const updated = decision['updatedInput'];
  if (behavior === 'allow' && updated !== undefined && !isRecord(updated)) {
    out.error = 'returned an updatedInput that is not an object';
    return;
  }
  // The rewritten input is a new call: the loop judges it again with the permission chain.
  const rewrite = behavior === 'allow' && isRecord(updated) ? { updatedInput: out.hook.format === 'claude' && input.toolName ? fromClaudeInput(input.toolName, updated) : updated } : {};
  // The updates are checked and applied by the loop (src/loop/permission-updates.ts) when the allow answers the prompt.
  const updates = behavior === 'allow' && decision['updatedPermissions'] !== undefined ? { updatedPermissions: decision['updatedPermissions'] } : {};
  out.permission = { behavior, ...(message ? { message } : {}), ...(behavior === 'deny' && decision['interrupt'] === true ? { interrupt: true } : {}), ...rewrite, ...updates };
}

/**
 * PostToolUse's `updatedToolOutput` (or `updatedMCPToolOutput`): what the model sees instead of the
 * tool's output. cairn's tools give text, so a string fits every tool; Claude Code's Bash shape
 * (`{stdout, stderr}`) fits bash; an MCP tool takes any value (content blocks' text, else its JSON).
 * A value of another shape is ignored, as Claude Code ignores one that does not match the tool's.
 */
function applyUpdatedOutput(out: HookOutcome, value: unknown, input: HookInput): void {
  if (value === undefined) return;
  const tool = input.toolName ?? '';
  if (typeof value === 'string') out.updatedOutput = cap(value);
  else if (tool === 'bash' && isRecord(value) && typeof value['stdout'] === 'string') {
    const stderr = typeof value['stderr'] === 'string' ? value['stderr'] : '';
    out.updatedOutput = cap([value['stdout'], stderr].filter((t) => t !== '').join('\n'));
  } else if (tool.startsWith('mcp__')) {
    const blocks = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value['content']) ? (value['content'] as unknown[]) : undefined;
    const texts = blocks?.filter(isRecord).map((b) => b['text']).filter((t): t is string => typeof t === 'string');
    out.updatedOutput = cap(texts && texts.length > 0 ? texts.join('\n') : JSON.stringify(value));
  } else {
    out.message = `its updatedToolOutput is not text${tool === 'bash' ? ' or {stdout, stderr}' : ''} and was ignored: the model sees the tool's own output`;
  }
}

function failure(hook: HookDefinition, result: HookProcessResult): string | undefined {
  if (result.spawnError !== undefined) return `could not start: ${result.spawnError}`;
  if (result.failed !== undefined) return result.failed;
  if (result.timedOut) return `timed out after ${hook.timeoutMs / 1000}s and was stopped`;
  if (result.exitCode === null) return 'was stopped before it finished';
  return undefined;
}

/**
 * WorktreeCreate replaces git's worktree creation: the hook prints the path it made (the last
 * non-empty line of stdout) or, as JSON, `hookSpecificOutput.worktreePath`. Any non-zero exit (or
 * no path) fails the creation; the path is checked by the caller (untrusted).
 */
function worktreeCreated(hook: HookDefinition, result: HookProcessResult): HookOutcome {
  const stderr = cap(result.stderr);
  if (result.exitCode !== 0) return { hook, error: `exited with ${result.exitCode}${stderr ? `: ${firstLine(stderr)}` : ''}` };
  const { json, error } = readJson(result.stdout);
  if (error) return { hook, error };
  const specific = json && isRecord(json['hookSpecificOutput']) ? json['hookSpecificOutput'] : {};
  const printed = json ? specific['worktreePath'] : result.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '').pop();
  if (typeof printed !== 'string' || printed.trim() === '') return { hook, error: 'printed no worktree path (it must print the absolute path of the worktree it created)' };
  return { hook, worktreePath: printed.trim() };
}

export function interpretHook(hook: HookDefinition, input: HookInput, result: HookProcessResult): HookOutcome {
  const out: HookOutcome = { hook };
  const failed = failure(hook, result);
  if (failed) return { hook, error: failed };
  if (input.event === 'WorktreeCreate') return worktreeCreated(hook, result);
  const { json, error } = readJson(result.stdout);
  const stderr = cap(result.stderr);
  const code = result.exitCode;
  if (hook.format === 'claude') {
    if (code === 2) {
      const why = stderr || `blocked by a hook (${hook.source})`;
      if (CLAUDE_BLOCKABLE.includes(input.event)) out.block = why;
      else out.message = why;
      return out;
    }
    if (error) return { hook, error };
    if (json) applyJson(out, json, input);
    else if (code === 0 && PLAIN_TEXT_CONTEXT.includes(input.event) && result.stdout.trim() !== '') out.context = cap(result.stdout);
    if (code !== 0) out.error = `exited with ${code}${stderr ? `: ${firstLine(stderr)}` : ''}`;
    return out;
  }
  if (error) return { hook, error };
  if (json) applyJson(out, json, input);
  if (code === 1) {
    const why = stderr || `blocked by a hook (${hook.source})`;
    if (CAIRN_BLOCKABLE.includes(input.event)) out.block = why;
    else out.error = `exited with 1 (only PreToolUse and UserPromptSubmit can block)${stderr ? `: ${firstLine(stderr)}` : ''}`;
  } else if (code === 2) {
    if (stderr) out.context = out.context ? `${out.context}\n${stderr}` : stderr;
  } else if (code !== 0) {
    out.error = `exited with ${code}${stderr ? `: ${firstLine(stderr)}` : ''}`;
  }
  return out;
}
