// The line each permission rule stands on in its settings file, so the decision log and /permissions
// can say "allowed by Bash(npm test:*) (.cairn/settings.json:7)": where json-spans.ts finds the
// value of `permissions.<list>[i]` to start, as a line number.

import { jsonSpans } from './json-spans.js';

export type RuleLineKey = `${'allow' | 'ask' | 'deny'}[${number}]`;

const isRuleList = (name: string | number | undefined): name is 'allow' | 'ask' | 'deny' => name === 'allow' || name === 'ask' || name === 'deny';

/** `allow[0]` -> 1-based line, for every rule in the file's `permissions` lists (a repeated key: its last, as JSON.parse reads it). */
export function ruleLines(text: string): Map<RuleLineKey, number> {
  const out = new Map<RuleLineKey, number>();
  // Leaves come in text order, so the newlines are counted once, from one rule to the next.
  let line = 1;
  let counted = 0;
  for (const { path, start } of jsonSpans(text)) {
    const [root, list, index] = path;
    if (path.length !== 3 || root !== 'permissions' || !isRuleList(list) || typeof index !== 'number') continue;
    if (start < counted) [line, counted] = [1, 0]; // not expected (rules do not nest), but never a wrong line
    for (; counted < start; counted++) if (text.charCodeAt(counted) === 10) line++;
    out.set(`${list}[${index}]`, line);
  }
  return out;
}
