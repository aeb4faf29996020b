// /rules lists every rule in force; a rule whose tool cairn does not have (yet: an MCP server not
// started, a Claude Code tool cairn lacks) is kept, since it may apply later, and marked as such.
import { ruleNamesTool } from './match.js';
import { CLAUDE_CODE_ALIASES, parseRule } from './parse.js';

/** Claude Code's own tool names: a rule naming one is not a typo, even where cairn has no such tool yet. */
export const CLAUDE_CODE_TOOL_NAMES: ReadonlySet<string> = new Set([
  ...CLAUDE_CODE_ALIASES,
  // Claude Code tools cairn has no equivalent of.
  'AskUserQuestion', 'EnterPlanMode', 'EnterWorktree', 'ExitWorktree', 'LSP', 'ListMcpResourcesTool', 'Monitor', 'NotebookRead',
  'ReadMcpResourceTool', 'ScheduleWakeup', 'SlashCommand', 'TeamDelete', 'TodoRead',
]);

/** Whether some tool of this session is what the rule names. */
export function ruleHasTool(rule: string, toolNames: readonly string[]): boolean {
  let tool: string;
  try {
    tool = parseRule(rule).tool;
  } catch {
    return true; // not a rule the checker holds; nothing to mark
  }
  return toolNames.some((name) => ruleNamesTool(tool, name));
}

/** The rules as /rules shows them: each whose tool is missing marked "(no such tool yet)". */
export function describeRules(rules: readonly string[], toolNames: readonly string[]): string[] {
  return rules.map((rule) => (ruleHasTool(rule, toolNames) ? rule : `${rule} (no such tool yet)`));
}
