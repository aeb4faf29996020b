// Claude Code's matcher rules: omitted, "" or "*" match everything; a matcher of plain name
// characters is a list of exact names split on "|" or ","; anything else is an unanchored regular
// expression. Tool names match through the same aliases as permission rules (`Bash` is `bash`),
// and a regular expression is tried against both names (`Edit.*`, `mcp__memory__.*`).
import { canonicalToolName } from '../permissions/rules/parse.js';
import { claudeToolName } from './claude-tool-names.js';

const PLAIN = /^[A-Za-z0-9_ ,|-]*$/;

/** Throws when the matcher is a regular expression that does not compile (reported at load). */
export function compileMatcher(matcher: string | undefined): (name: string, isTool: boolean) => boolean {
  const text = matcher?.trim() ?? '';
  if (text === '' || text === '*') return () => true;
  if (PLAIN.test(text)) {
    const names = text.split(/[|,]/).map((n) => n.trim()).filter(Boolean);
    return (name, isTool) => names.some((n) => n === name || (isTool && canonicalToolName(n) === name));
  }
  const re = new RegExp(text);
  return (name, isTool) => re.test(name) || (isTool && re.test(claudeToolName(name)));
}
