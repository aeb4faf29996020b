// Two rules of the decision chain that hold whatever the tool: a scoped deny or ask rule on a tool
// that has no paths, command or URL (`Agent(Explore)`, `Skill(deploy)`, `mcp__github__create_issue(x)`),
// and dontAsk mode, which denies whatever would have been asked.
import type { PermissionMode } from '../../events.js';
import type { AnyTool } from '../../tools/tool.js';
import type { RuleLists } from '../bash/command-check.js';
import { matchBashSpecifier, ruleNamesTool } from './match.js';
import type { ParsedRule } from './parse.js';
import type { PermissionCheck } from '../types.js';
import { ask, BY_MODE, byRule, deny } from '../verdicts.js';

/**
 * For a tool judged by neither paths, command nor URL: a scoped deny or ask rule naming it hits
 * when its specifier matches the call's subject (`Agent(Explore)` the agent type; `name *` a prefix).
 * A tool that says nothing of its subject is hit by every such rule: cairn cannot tell, so the
 * rule applies rather than fail open. Undefined: no such rule; the ordinary chain decides.
 */
export function pathlessScopedVerdict(tool: AnyTool, input: unknown, rules: RuleLists): PermissionCheck | undefined {
  if (tool.paths || tool.command?.(input) !== undefined || 'url' in tool) return undefined; // a URL tool (web_fetch) judges its own `domain:` rules
  // Deny and ask only: matched without case, so Claude Code's `Agent(Explore)` holds for cairn's `explore`.
  const subject = tool.ruleSubject?.(input).toLowerCase();
  const hits = (r: ParsedRule): boolean =>
    r.specifier !== undefined && ruleNamesTool(r.tool, tool.name) && (subject === undefined || matchBashSpecifier(r.specifier.toLowerCase(), subject));
  const denied = rules.deny.find(hits);
  if (denied) return deny(`denied by rule ${denied.text}${subject === undefined ? ` (${tool.name} cannot say what the rule's "(...)" is matched against, so the rule covers every call)` : ''}`, byRule('deny', denied));
  const asked = rules.ask.find(hits);
  if (asked) return ask(`matches the ask rule ${asked.text}`, [], undefined, byRule('ask', asked));
  return undefined;
}

/** dontAsk: what is not allowed by a rule (or needs no approval) is denied, ask rules included; nobody is asked. */
export function dontAskVerdict(mode: PermissionMode, verdict: PermissionCheck): PermissionCheck {
  if (mode !== 'dontAsk' || verdict.behavior !== 'ask') return verdict;
  return deny(`dontAsk mode denies what no rule allows: ${verdict.reason}`, BY_MODE);
}

/** The checker with dontAsk applied to every verdict, in whatever mode it is switched to later. */
export function withDontAsk<C extends { readonly mode: PermissionMode; check(tool: AnyTool, input: unknown): Promise<PermissionCheck> }>(checker: C): C {
  const decide = checker.check.bind(checker);
  checker.check = async (tool, input) => dontAskVerdict(checker.mode, await decide(tool, input));
  return checker;
}
