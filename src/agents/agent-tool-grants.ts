import { CLAUDE_CODE_TOOL_NAMES } from '../permissions/rules/listing.js';
import { canonicalToolName } from '../permissions/rules/parse.js';
import type { AgentDefinition } from './agent-definition.js';

/** Whether a definition's list names this tool: exactly, or `mcp__server` for each of that server's tools. */
function names(list: readonly string[], tool: string): boolean {
  return list.some((n) => n === tool || (n.startsWith('mcp__') && !n.slice(5).includes('__') && tool.startsWith(`${n}__`)));
}

/**
 * Whether an agent gets a tool of the pool: listed in `tools` (or no `tools` at all), and not in
 * `disallowedTools`, which wins on overlap. Names are matched as they are when the agent runs,
 * so a tool added later (web_fetch, an MCP server's) is granted once it exists.
 */
export function grantsTool(def: Pick<AgentDefinition, 'tools' | 'disallowedTools'>, tool: string): boolean {
  if (def.disallowedTools && names(def.disallowedTools, tool)) return false;
  return def.tools === undefined || names(def.tools, tool);
}

// Claude Code's own tool names: a definition may list them before cairn has them. Definitions hold
// cairn's names (canonicalToolName), so a name cairn has under another one is counted as that one.
const CLAUDE_CODE_TOOLS = new Set([...CLAUDE_CODE_TOOL_NAMES, ...[...CLAUDE_CODE_TOOL_NAMES].map(canonicalToolName)]);

const listed = (names: readonly string[]): string => `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'}`;

/**
 * What to tell the user about an agent's tool names that match no tool it gets, one line per
 * definition: tools of the session that `withheld` keeps from this kind of agent (a subagent gets
 * no team or schedule tools), Claude Code tools and MCP tools cairn does not have yet (kept,
 * granted once they exist), and names that are no tool at all (kept, but likely a mistake).
 */
export function agentToolNotices(agents: readonly AgentDefinition[], toolNames: readonly string[], withheld: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (const def of agents) {
    if (def.tools === undefined) continue;
    const missing = def.tools.filter((n) => !toolNames.some((t) => names([n], t)));
    if (missing.length === 0) continue;
    const kept = missing.filter((n) => withheld.has(n));
    const later = missing.filter((n) => !kept.includes(n) && (CLAUDE_CODE_TOOLS.has(n) || n.startsWith('mcp__')));
    const unknown = missing.filter((n) => !kept.includes(n) && !later.includes(n));
    const parts: string[] = [];
    if (kept.length > 0) parts.push(`${listed(kept)} the main session's, not a subagent's (a teammate started with team_spawn has send_message and the task tools)`);
    if (later.length > 0) parts.push(`${listed(later)} not in cairn yet (granted when ${later.length === 1 ? 'it exists' : 'they exist'})`);
    if (unknown.length > 0) parts.push(`${unknown.join(', ')} ${unknown.length === 1 ? 'is no tool' : 'are no tools'} cairn or Claude Code has`);
    const none = def.tools.every((n) => missing.includes(n)) ? '; it has no tools until then' : '';
    out.push(`Agent ${def.name} (${def.source}): ${parts.join('; ')}${none}`);
  }
  return out;
}
