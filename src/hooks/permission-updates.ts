// A PermissionRequest hook's `decision.updatedPermissions`, in Claude Code's shapes (the Agent SDK's
// PermissionUpdate): addRules / removeRules {rules: [{toolName, ruleContent?}], behavior, destination},
// setMode {mode, destination}, addDirectories {directories, destination}. Read here into checked
// updates; each malformed one is a problem naming its index and field, and is left out.
import { PERMISSION_MODES } from '../permission-modes.js';
import type { PermissionMode } from '../events.js';

export type UpdateDestination = 'session' | 'localSettings' | 'projectSettings' | 'userSettings';
export type RuleBehavior = 'allow' | 'deny' | 'ask';

export type PermissionUpdate =
  | { type: 'addRules' | 'removeRules'; rules: string[]; behavior: RuleBehavior; destination: UpdateDestination; at: string }
  | { type: 'setMode'; mode: PermissionMode; destination: UpdateDestination; at: string }
  | { type: 'addDirectories'; directories: string[]; destination: UpdateDestination; at: string };

const DESTINATIONS: readonly string[] = ['session', 'localSettings', 'projectSettings', 'userSettings'];
// Claude Code's other types: cairn has no equivalent it could apply safely, so they are named and ignored.
const NOT_APPLIED: Readonly<Record<string, string>> = {
  replaceRules: 'replaceRules is not applied (it would drop rules you wrote; use addRules and removeRules)',
  removeDirectories: 'removeDirectories is not applied (cairn\'s working folders come from settings and --add-dir)',
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The rule text of `{toolName, ruleContent}`: `Tool(content)`, or `Tool` alone. */
function ruleText(value: unknown, at: string): string | { problem: string } {
  if (!isRecord(value)) return { problem: `${at}: expected {toolName, ruleContent}` };
  const tool = value['toolName'];
  if (typeof tool !== 'string' || tool.trim() === '') return { problem: `${at}.toolName: expected a tool name` };
  const content = value['ruleContent'];
  if (content !== undefined && typeof content !== 'string') return { problem: `${at}.ruleContent: expected a string` };
  return content === undefined || content.trim() === '' ? tool.trim() : `${tool.trim()}(${content})`;
}

function readOne(value: unknown, at: string): PermissionUpdate | { problem: string } {
  if (!isRecord(value)) return { problem: `${at}: expected an object {type, ...}` };
  const type = value['type'];
  if (typeof type === 'string' && NOT_APPLIED[type] !== undefined) return { problem: `${at}: ${NOT_APPLIED[type]}` };
  if (type !== 'addRules' && type !== 'removeRules' && type !== 'setMode' && type !== 'addDirectories') {
    return { problem: `${at}: unknown type ${JSON.stringify(type)} (addRules, removeRules, setMode or addDirectories)` };
  }
  // Claude Code's `cliArg` destination is this run's, as a session's.
  const destination = value['destination'] === 'cliArg' ? 'session' : value['destination'];
  if (typeof destination !== 'string' || !DESTINATIONS.includes(destination)) return { problem: `${at}.destination: expected session, localSettings, projectSettings or userSettings` };
  const where = destination as UpdateDestination;
  if (type === 'setMode') {
    const mode = value['mode'];
    if (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode)) return { problem: `${at}.mode: unknown mode ${JSON.stringify(mode)} (${PERMISSION_MODES.join(', ')})` };
    return { type, mode: mode as PermissionMode, destination: where, at };
  }
  if (type === 'addDirectories') {
    const dirs = value['directories'];
    if (!Array.isArray(dirs) || dirs.length === 0) return { problem: `${at}.directories: expected a list of absolute paths` };
    for (const [i, d] of dirs.entries()) {
      if (typeof d !== 'string' || !d.startsWith('/')) return { problem: `${at}.directories[${i}]: expected an absolute path` };
    }
    return { type, directories: dirs as string[], destination: where, at };
  }
  const behavior = value['behavior'];
  if (behavior !== 'allow' && behavior !== 'deny' && behavior !== 'ask') return { problem: `${at}.behavior: expected allow, deny or ask` };
  const rules = value['rules'];
  if (!Array.isArray(rules) || rules.length === 0) return { problem: `${at}.rules: expected a list of {toolName, ruleContent}` };
  const texts: string[] = [];
  for (const [i, r] of rules.entries()) {
    const text = ruleText(r, `${at}.rules[${i}]`);
    if (typeof text !== 'string') return text;
    texts.push(text);
  }
  return { type, rules: texts, behavior, destination: where, at };
}

/** The updates that are well formed, and a problem (naming the index and field) for each that is not. */
export function readPermissionUpdates(value: unknown): { updates: PermissionUpdate[]; problems: string[] } {
  if (!Array.isArray(value)) return { updates: [], problems: ['updatedPermissions: expected a list of updates'] };
  const updates: PermissionUpdate[] = [];
  const problems: string[] = [];
  value.forEach((v, i) => {
    const read = readOne(v, `updatedPermissions[${i}]`);
    if ('problem' in read) problems.push(read.problem);
    else updates.push(read);
  });
  return { updates, problems };
}
