// Claude Code reads a path rule's leading "/" as anchored where the rule's settings file belongs
// (the project root for the project's files, ~/.claude for the user's file) and "//" as the
// filesystem root. cairn's checker reads "//x" as absolute, so a "/x" rule is rewritten to name its
// anchor explicitly. A deny or ask rule keeps the absolute reading as well: a rule written for an
// older cairn (where "/x" was absolute) must not fail open, and denying more is the safe side.
// Likewise a relative deny or ask pattern also matches at any depth.
import path from 'node:path';
import { parseRule } from './parse.js';

// Tools whose specifier is a path (cairn's names, after the alias table).
const PATH_TOOLS = new Set(['read_file', 'edit_file', 'write_file', 'glob', 'grep', 'list_dir']);

export type RuleList = 'allow' | 'ask' | 'deny';

/**
 * The rules a settings rule stands for, with a single leading "/" anchored at `anchor`:
 * `Read(/secrets/**)` from the project's file is `Read(//<project>/secrets/**)` (and, for deny and
 * ask, also `Read(//secrets/**)`). Other rules are returned as written. Throws RuleError as parseRule.
 */
export function anchorRule(rule: string, list: RuleList, anchor: string): string[] {
  const parsed = parseRule(rule);
  const spec = parsed.specifier;
  if (spec === undefined || !PATH_TOOLS.has(parsed.tool)) return [parsed.text];
  const name = parsed.text.slice(0, parsed.text.indexOf('('));
  // A relative pattern (`.env`, `secrets/**`) in a deny or ask rule matches at any depth, as in Claude
  // Code; cairn's matcher reads it from the workspace root, so the any-depth form is added.
  if (list !== 'allow' && !/^(\/|\.\/|\.\.\/|~|\*\*\/)/.test(spec)) return [parsed.text, `${name}(**/${spec})`];
  if (!spec.startsWith('/') || spec.startsWith('//')) return [parsed.text];
  const anchored = `${name}(/${path.posix.join(path.resolve(anchor), spec)})`;
  if (list === 'allow') return [anchored];
  const absolute = `${name}(/${spec})`;
  return anchored === absolute ? [anchored] : [anchored, absolute];
}
