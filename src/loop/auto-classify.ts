// Auto mode in the loop: an ask where containment ends goes to the classifier before the user.
// Its allow runs the call, its block denies it, and no verdict (an error, a timeout, an answer
// that cannot be read) leaves the ask to the user as in default mode.
import type { AgentEvent } from '../events.js';
import type { ActionClassifier } from '../permissions/auto/classifier.js';
import { otherDecision, summarizeInput } from '../permissions/decision-record.js';
import type { PermissionCheck, PermissionChecker } from '../permissions/types.js';
import type { AnyTool } from '../tools/tool.js';

const INPUT_CHARS = 4000;

export type Classified = { verdict: 'allow' } | { verdict: 'block'; reason: string } | { verdict: 'ask'; why?: string };

interface Call {
  id: string;
  tool: AnyTool;
  input: unknown;
  agent?: string;
}

/** The input as the classifier sees it: the one-line summary, then the input as JSON (cut). */
function actionInput(tool: AnyTool, input: unknown): string {
  const json = JSON.stringify(input) ?? '';
  const whole = json.length > INPUT_CHARS ? `${json.slice(0, INPUT_CHARS)}… (cut)` : json;
  return `${summarizeInput(tool, input)}\n${whole}`;
}

/** Whether auto mode's classifier answers this verdict: an ask where containment ends, in auto mode. */
export function classifierAnswers(check: PermissionCheck, permissions: PermissionChecker, classifier: ActionClassifier | undefined): classifier is ActionClassifier {
  return check.behavior === 'ask' && check.classifiable === true && permissions.mode === 'auto' && classifier !== undefined;
}

export async function* classifyAsk(
  call: Call,
  check: PermissionCheck,
  ctx: { permissions: PermissionChecker; classifier: ActionClassifier; signal: AbortSignal },
): AsyncGenerator<AgentEvent, Classified> {
  const outcome = await ctx.classifier.classify(
    { tool: call.tool.name, input: actionInput(call.tool, call.input), why: check.reason, ...(call.agent !== undefined ? { agent: call.agent } : {}) },
    ctx.signal,
  );
  // Its tokens count in /usage and against the spending cap, apart from the agent's own calls.
  if (outcome.usage) yield { type: 'usage', usage: outcome.usage, ...(outcome.model !== undefined ? { model: outcome.model } : {}), for: 'classifier' };
  if (outcome.decision === 'unavailable') return { verdict: 'ask', why: outcome.reason };
  yield otherDecision(call, ctx.permissions, outcome.decision === 'allow' ? 'allow' : 'deny', 'classifier', outcome.reason);
  return outcome.decision === 'allow' ? { verdict: 'allow' } : { verdict: 'block', reason: outcome.reason };
}
