// One permission decision as the `permission_decision` event (the decision log): the verdict, a
// one-line summary of the input, and what decided it, with the deciding rule's file and line.
import type { EventOf } from '../events.js';
import type { AnyTool } from '../tools/tool.js';
import type { PermissionCheck, PermissionChecker, PermissionDecision } from './types.js';

export type DecisionEvent = EventOf<'permission_decision'>;
type Decider = DecisionEvent['by'];

const SUMMARY_CHARS = 200;

/** What the call would do, in one line: the command, the URL, the paths, or the input as JSON. */
export function summarizeInput(tool: AnyTool, input: unknown): string {
  let text: string;
  try {
    const command = tool.command?.(input);
    if (command !== undefined) text = command;
    else if (tool.url) text = tool.url(input);
    else {
      const paths = tool.paths?.(input) ?? [];
      text = paths.length > 0 ? paths.join(' ') : (JSON.stringify(input) ?? '');
    }
  } catch {
    text = JSON.stringify(input) ?? '';
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}

interface Call {
  id: string;
  tool: AnyTool;
  input: unknown;
  agent?: string;
}

function base(call: Call, permissions: PermissionChecker, verdict: 'allow' | 'deny', by: Decider, reason: string): DecisionEvent {
  return {
    type: 'permission_decision',
    id: call.id,
    name: call.tool.name,
    input: summarizeInput(call.tool, call.input),
    verdict,
    by,
    reason,
    mode: permissions.mode,
    ...(call.agent !== undefined ? { agent: call.agent } : {}),
  };
}

/** The chain's own allow or deny (no one asked): by the rule, built-in deny, mode or sandbox it names, else cairn. */
export function chainDecision(call: Call, permissions: PermissionChecker, check: PermissionCheck & { behavior: 'allow' | 'deny' }): DecisionEvent {
  const by = check.by;
  if (by?.kind === 'rule') {
    const event = base(call, permissions, check.behavior, 'rule', check.reason);
    const [first] = by.rules;
    const source = first === undefined ? undefined : permissions.ruleSource?.(by.list, first);
    return {
      ...event,
      rule: source?.rule ?? first ?? '',
      ...(source ? { where: source.where } : {}),
      ...(source?.file !== undefined ? { file: source.file } : {}),
      ...(source?.line !== undefined ? { line: source.line } : {}),
    };
  }
  if (by?.kind === 'builtin') return { ...base(call, permissions, check.behavior, 'builtin', check.reason), rule: by.rule };
  return base(call, permissions, check.behavior, by?.kind ?? 'cairn', check.reason);
}

/** A deny that is not the chain's verdict: nobody could be asked, the check failed, a hook blocked. */
export function otherDecision(call: Call, permissions: PermissionChecker, verdict: 'allow' | 'deny', by: Decider, reason: string): DecisionEvent {
  return base(call, permissions, verdict, by, reason);
}

/** The user's answer to an approval prompt. */
export function userDecision(call: Call, permissions: PermissionChecker, decision: PermissionDecision, reason: string): DecisionEvent {
  const answer =
    decision.behavior === 'allow'
      ? decision.remember === 'project'
        ? 'yes, always (saved to the project settings)'
        : decision.remember === 'session'
          ? 'yes, for this session'
          : 'yes, once'
      : decision.unanswered !== undefined
        ? 'no answer in time'
        : decision.message
          ? `no: ${decision.message}`
          : 'no';
  return { ...base(call, permissions, decision.behavior, 'user', reason), answer };
}
