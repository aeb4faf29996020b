/** A permission rule in Claude Code's `Tool(specifier)` syntax, with the tool name mapped to cairn's. */
export interface ParsedRule {
  /** The rule as written, for reasons and /rules. */
  text: string;
  /** Cairn's tool name (`Bash` -> `bash`). */
  tool: string;
  /** Absent for a bare rule (`write_file`, `Bash(*)`): it covers every use of the tool. */
  specifier?: string;
}

export class RuleError extends Error {
  override name = 'RuleError';
}

// Claude Code's names, so settings files and .claude/agents `tools:` lists work as they are: the one alias table.
const TOOL_ALIASES: Record<string, string> = {
  Bash: 'bash',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'list_dir',
  NotebookEdit: 'edit_file',
  Task: 'agent',
  Agent: 'agent',
  TodoWrite: 'todo_write',
  ExitPlanMode: 'exit_plan_mode',
  EnterPlanMode: 'enter_plan_mode',
  AskUserQuestion: 'ask_user_question',
  BashOutput: 'bash_output',
  KillShell: 'kill_shell',
  KillBash: 'kill_shell',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  Skill: 'load_skill',
  // Background tasks, the schedule and the team (Claude Code 2.x): cairn's tools that do the same.
  TaskOutput: 'bash_output',
  TaskStop: 'kill_shell',
  Monitor: 'monitor',
  CronCreate: 'cron_create',
  CronDelete: 'cron_delete',
  CronList: 'cron_list',
  SendMessage: 'send_message',
  TaskCreate: 'task_create',
  TaskGet: 'task_get',
  TaskList: 'task_list',
  TaskUpdate: 'task_update',
  TeamCreate: 'team_spawn',
};

/** Claude Code's tool names that are cairn's under another name. */
export const CLAUDE_CODE_ALIASES: readonly string[] = Object.keys(TOOL_ALIASES);

// `*` for tool-name wildcards (`mcp__github__*`, `mcp__*`); where each may be used is the settings loader's call.
const TOOL_NAME = /^[A-Za-z0-9_.*-]+$/;

/** A wildcard in an allow rule's tool name reaches only within one MCP server (`mcp__github__*`), as in Claude Code. */
export const allowWildcardOk = (tool: string): boolean => !tool.includes('*') || /^mcp__[^*]+__/.test(tool);

export function canonicalToolName(name: string): string {
  return TOOL_ALIASES[name] ?? name;
}

// Claude Code's built-in agent types as cairn names them, for `Agent(general-purpose)` rules.
const AGENT_TYPE_ALIASES: Record<string, string> = { 'general-purpose': 'general' };

/**
 * An agent type as `Agent(...)` rules see it: Claude Code's built-in names become cairn's, on the
 * rule's side and the call's alike, so a deny written either way holds for both spellings.
 */
export function canonicalAgentType(type: string): string {
  return AGENT_TYPE_ALIASES[type.trim().toLowerCase()] ?? type;
}

/** Parses `Tool` or `Tool(specifier)`; throws RuleError naming the rule and what is wrong with it. */
export function parseRule(input: string): ParsedRule {
  const text = input.trim();
  const fail = (why: string): never => {
    throw new RuleError(`invalid rule ${JSON.stringify(input)}: ${why}`);
  };
  if (text === '') fail('empty rule');
  const open = text.indexOf('(');
  if (open === -1) {
    if (text.includes(')')) fail('unexpected ")"');
    if (!TOOL_NAME.test(text)) fail('a tool name has only letters, digits, "_", "-", "." and "*"');
    return { text, tool: canonicalToolName(text) };
  }
  const name = text.slice(0, open).trim();
  if (name === '') fail('missing tool name before "("');
  if (!TOOL_NAME.test(name)) fail('a tool name has only letters, digits, "_", "-", "." and "*"');
  if (!text.endsWith(')')) fail('missing closing ")"');
  // As Claude Code reads it: everything between the first "(" and the last ")", so a command may
  // hold parentheses of its own, balanced or not (`Bash(echo ")")`).
  const specifier = text.slice(open + 1, -1).trim();
  if (specifier === '') fail('empty specifier in "()"; write the bare tool name to match every use');
  const tool = canonicalToolName(name);
  if (specifier === '*') return { text, tool };
  return { text, tool, specifier: tool === 'agent' ? canonicalAgentType(specifier) : specifier };
}

/**
 * Splits a flag value such as `"Bash(git status:*) Read"` into rules: separated by spaces or commas,
 * except inside parentheses, where both are part of the specifier.
 */
export function splitRuleList(value: string): string[] {
  const rules: string[] = [];
  let current = '';
  let depth = 0;
  for (const ch of value) {
    if (ch === '(') depth += 1;
    else if (ch === ')' && depth > 0) depth -= 1;
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (current !== '') rules.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current !== '') rules.push(current);
  return rules;
}
