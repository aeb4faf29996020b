// The checker's side of /permissions add and remove: the file is written (rule-file-edits.ts) and the
// rules in force change with it, so the next call is judged by what the file now says.
import { readFile } from 'node:fs/promises';
import { anchorRule, type RuleList } from './anchor.js';
import { parseRule, type ParsedRule } from './parse.js';
import { addRuleToFile, removeRuleFromFile } from './rule-file-edits.js';
import { ruleLines } from './rule-lines.js';
import type { RuleOrigin } from './unknown-tools.js';

export interface RuleEditState {
  configured: Record<RuleList, ParsedRule[]>;
  origins: RuleOrigin[];
  /** Rules "always allow" saved this session (their origins name the file). */
  saved: ParsedRule[];
  /** "This session" allow answers: removed by text. */
  session: () => ParsedRule[];
  setSession: (rules: ParsedRule[]) => void;
}

/** What a removal did: the places the rule was taken out of, and those it could not be (a flag). */
export interface RemovedRule {
  removedFrom: string[];
  notInAFile: string[];
}

async function lineOf(file: string, list: RuleList, rule: string): Promise<number | undefined> {
  try {
    const text = await readFile(file, 'utf8');
    const rules = ((JSON.parse(text) as { permissions?: Record<string, unknown> }).permissions?.[list] ?? []) as unknown[];
    const i = rules.lastIndexOf(rule);
    return i < 0 ? undefined : ruleLines(text).get(`${list}[${i}]`);
  } catch {
    return undefined;
  }
}

/** Writes `rule` into `file`'s list and puts it in force (anchored at `anchor`, as the file's other rules). */
export async function addRule(state: RuleEditState, list: RuleList, rule: string, file: string, anchor: string): Promise<boolean> {
  const anchored = anchorRule(rule, list, anchor); // throws RuleError for a malformed rule, before the file is touched
  const added = await addRuleToFile(file, list, rule);
  for (const text of anchored) if (!state.configured[list].some((r) => r.text === text)) state.configured[list].push(parseRule(text));
  if (added) {
    const line = await lineOf(file, list, rule);
    state.origins.push({ rule, where: `${file}: permissions.${list}`, list, anchored, file, ...(line !== undefined ? { line } : {}) });
  }
  return added;
}

/** Takes `rule` out of every file its `list` came from, and out of force (a "this session" answer too). */
export async function removeRule(state: RuleEditState, list: RuleList, rule: string): Promise<RemovedRule> {
  const from = state.origins.filter((o) => o.list === list && o.rule === rule);
  const result: RemovedRule = { removedFrom: [], notInAFile: [] };
  const gone: RuleOrigin[] = [];
  for (const origin of from) {
    if (origin.file === undefined) {
      result.notInAFile.push(origin.where);
      continue;
    }
    await removeRuleFromFile(origin.file, list, rule);
    result.removedFrom.push(origin.file);
    gone.push(origin);
  }
  state.origins.splice(0, state.origins.length, ...state.origins.filter((o) => !gone.includes(o)));
  // A text still carried by a remaining origin (the same rule in a flag or another list's file) stays in force.
  const carried = new Set(state.origins.filter((o) => o.list === list).flatMap((o) => o.anchored ?? [o.rule]));
  const texts = new Set(gone.flatMap((o) => o.anchored ?? [o.rule]));
  state.configured[list] = state.configured[list].filter((r) => !texts.has(r.text) || carried.has(r.text));
  if (list === 'allow') state.saved.splice(0, state.saved.length, ...state.saved.filter((r) => !texts.has(r.text) || carried.has(r.text)));
  if (list === 'allow') {
    const before = state.session();
    const after = before.filter((r) => r.text !== parseRule(rule).text);
    if (after.length !== before.length) {
      state.setSession(after);
      result.removedFrom.push('this session (an approval answer)');
    }
  }
  return result;
}
