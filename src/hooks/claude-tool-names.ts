// Hooks written for Claude Code read `tool_name` and `tool_input` in Claude Code's names (`Write`
// with `file_path`), and may answer with an `updatedInput` in those names. This table maps cairn's
// tool calls to that shape and back. The forward tool-name aliases live in permissions/rules/parse.ts
// (canonicalToolName); this is the reverse, plus the field names, for the tools whose fields differ.
import path from 'node:path';

interface ToolMapping {
  /** Claude Code's name for the tool. */
  claude: string;
  /** cairn field -> Claude Code field, for the fields whose names differ. */
  fields: Record<string, string>;
  /** Fields holding a path: Claude Code gives hooks absolute paths. */
  paths?: readonly string[];
}

const MAPPINGS: Record<string, ToolMapping> = {
  bash: { claude: 'Bash', fields: {} },
  read_file: { claude: 'Read', fields: { path: 'file_path' }, paths: ['path'] },
  write_file: { claude: 'Write', fields: { path: 'file_path' }, paths: ['path'] },
  edit_file: { claude: 'Edit', fields: { path: 'file_path' }, paths: ['path'] },
  glob: { claude: 'Glob', fields: {}, paths: ['path'] },
  grep: { claude: 'Grep', fields: { case_insensitive: '-i' }, paths: ['path'] },
  list_dir: { claude: 'LS', fields: {}, paths: ['path'] },
  agent: { claude: 'Task', fields: { type: 'subagent_type', task: 'prompt' } },
  todo_write: { claude: 'TodoWrite', fields: {} },
  exit_plan_mode: { claude: 'ExitPlanMode', fields: {} },
  enter_plan_mode: { claude: 'EnterPlanMode', fields: {} },
  ask_user_question: { claude: 'AskUserQuestion', fields: {} },
  bash_output: { claude: 'BashOutput', fields: { id: 'bash_id' } },
  kill_shell: { claude: 'KillShell', fields: { id: 'shell_id' } },
  monitor: { claude: 'Monitor', fields: {} },
  web_fetch: { claude: 'WebFetch', fields: {} },
};

/** Claude Code's name for a cairn tool (`write_file` -> `Write`); other tools keep their name (`mcp__x__y`). */
export function claudeToolName(cairnName: string): string {
  return MAPPINGS[cairnName]?.claude ?? cairnName;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A cairn tool input in Claude Code's field names, paths made absolute against the workspace. */
export function toClaudeInput(cairnName: string, input: unknown, cwd: string): unknown {
  const mapping = MAPPINGS[cairnName];
  if (!mapping || !isRecord(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const absolute = mapping.paths?.includes(key) && typeof value === 'string' ? path.resolve(cwd, value) : value;
    out[mapping.fields[key] ?? key] = absolute;
  }
  return out;
}

/**
 * An `updatedInput` written in Claude Code's field names, back in cairn's. It replaces the whole
 * input (as in Claude Code); the caller validates it against the tool's schema again.
 */
export function fromClaudeInput(cairnName: string, input: unknown): unknown {
  const mapping = MAPPINGS[cairnName];
  if (!mapping || !isRecord(input)) return input;
  const back = new Map(Object.entries(mapping.fields).map(([cairn, claude]) => [claude, cairn]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) out[back.get(key) ?? key] = value;
  return out;
}
