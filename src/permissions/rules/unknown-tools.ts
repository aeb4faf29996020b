// A rule naming a tool cairn does not have (`Bsh(rm:*)`) matches nothing: a deny rule with a
// typo silently protects nothing. The rule is kept (a later version or an MCP server may bring
// the tool) but the user is told, with the closest known name.
import { canonicalToolName, CLAUDE_CODE_ALIASES, parseRule } from './parse.js';
import { CLAUDE_CODE_TOOL_NAMES, ruleHasTool } from './listing.js';
import { editDistance } from '../../util/edit-distance.js';

export interface RuleOrigin {
  rule: string;
  /** The file and field, or the flag, the rule came from. */
  where: string;
  /** The list it is in, and the rules the checker holds for it (a `/x` path rule is anchored, maybe twice). */
  list?: 'allow' | 'ask' | 'deny';
  anchored?: string[];
  /** The settings file and the 1-based line the rule stands on there. */
  file?: string;
  line?: number;
}


/** One message per rule whose tool is unknown; `mcp__*` names are valid before servers start. */
export function unknownToolWarnings(origins: readonly RuleOrigin[], toolNames: readonly string[]): string[] {
  const known = new Set(toolNames);
  // Claude Code's names for cairn's tools, offered as suggestions in the user's style.
  const aliases = CLAUDE_CODE_ALIASES.filter((name) => canonicalToolName(name) !== name && known.has(canonicalToolName(name)));
  const warnings: string[] = [];
  for (const { rule, where } of origins) {
    let tool: string;
    try {
      tool = parseRule(rule).tool;
    } catch {
      continue; // syntax errors are reported where the rule is read
    }
    // Wildcards and mcp__ names may match tools that come later; Claude Code's own names are not typos (/rules marks them).
    if (ruleHasTool(rule, toolNames) || tool.startsWith('mcp__') || CLAUDE_CODE_TOOL_NAMES.has(rule.trim().split('(')[0]?.trim() ?? '')) continue;
    const name = (rule.trim().split('(')[0] ?? '').trim();
    const guess = closest(name, [...aliases, ...known]);
    warnings.push(
      `${where}: the rule ${JSON.stringify(rule)} names an unknown tool "${name}"${guess ? ` (did you mean ${guess}?)` : ''}; it matches nothing. ` +
        `Known tools: ${describeKnown(known, aliases)}`,
    );
  }
  return warnings;
}

function describeKnown(known: ReadonlySet<string>, aliases: readonly string[]): string {
  return [...known]
    .sort()
    .map((name) => {
      const also = aliases.filter((a) => canonicalToolName(a) === name);
      return also.length > 0 ? `${name} (${also.join(', ')})` : name;
    })
    .join(', ');
}

/** The candidate nearest by edit distance (case ignored), if near enough to be a typo. */
function closest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
