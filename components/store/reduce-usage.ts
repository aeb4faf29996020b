import type { AgentEvent, EventOf } from '../../src/events.js';
import type { TokenCounts } from '../../src/pricing.js';
import { usageIn } from '../../src/usage-events.js';
import type { TurnUsage, UsageTotals } from './types.js';

/** How many turns /usage can show deltas for; older turns only count in the totals. */
export const USAGE_TURNS_KEPT = 20;
const LABEL_CHARS = 48;

export const emptyUsage: UsageTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, calls: 0, context: 0, turns: [], byModel: {}, estimatedCalls: 0, classifier: { calls: 0, byModel: {} } };

/**
 * The token-accounting slice. Every call counts in the totals, subagents' too (they are billed
 * to the session); only the main agent's last call says how full its context window is.
 */
export function reduceUsage(usage: UsageTotals, event: AgentEvent): UsageTotals {
  switch (event.type) {
    case 'user_prompt': {
      const turn: TurnUsage = { label: labelOf(event.text), input: 0, output: 0, cacheRead: 0, cacheWrite: 0, calls: 0 };
      return { ...usage, turns: [...usage.turns.slice(-(USAGE_TURNS_KEPT - 1)), turn] };
    }
    case 'compact':
      return { ...usage, context: event.tokens_after };
    case 'clear':
      // The tokens were spent and stay counted; the new conversation's context is empty.
      return { ...usage, context: 0 };
    case 'usage':
    case 'subagent': {
      const found = usageIn(event);
      if (found.length === 0) return usage;
      let next = usage;
      for (const { usage: u, model, for: purpose } of found) {
        next = add(next, u.input_tokens, u.output_tokens, u.cache_read_input_tokens ?? 0, u.cache_creation_input_tokens ?? 0);
        next = addForModel(next, model ?? 'unknown', u.input_tokens, u.output_tokens, u.cache_read_input_tokens ?? 0, u.cache_creation_input_tokens ?? 0);
        if (u.estimated) next = { ...next, estimatedCalls: next.estimatedCalls + 1 };
        if (purpose === 'classifier') next = { ...next, classifier: { calls: next.classifier.calls + 1, byModel: plus(next.classifier.byModel, model ?? 'unknown', u) } };
      }
      // The classifier's request and a /btw question's are not the agent's context window.
      if (event.type === 'usage' && event.for === undefined) {
        const u = event.usage;
        next = { ...next, context: u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + u.output_tokens };
      }
      return next;
    }
    default:
      return usage;
  }
}

function add(usage: UsageTotals, input: number, output: number, cacheRead: number, cacheWrite: number): UsageTotals {
  const turns = usage.turns.slice();
  // Calls before the first prompt (a /compact right after resuming) get a turn of their own.
  const last = turns.pop() ?? { label: '(before the first prompt)', input: 0, output: 0, cacheRead: 0, cacheWrite: 0, calls: 0 };
  turns.push({
    ...last,
    input: last.input + input,
    output: last.output + output,
    cacheRead: last.cacheRead + cacheRead,
    cacheWrite: last.cacheWrite + cacheWrite,
    calls: last.calls + 1,
  });
  return {
    ...usage,
    input: usage.input + input,
    output: usage.output + output,
    cacheRead: usage.cacheRead + cacheRead,
    cacheWrite: usage.cacheWrite + cacheWrite,
    calls: usage.calls + 1,
    turns,
  };
}

function plus(byModel: Readonly<Record<string, TokenCounts>>, model: string, u: EventOf<'usage'>['usage']): Record<string, TokenCounts> {
  const was: TokenCounts = byModel[model] ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  return { ...byModel, [model]: { input: was.input + u.input_tokens, output: was.output + u.output_tokens, cacheRead: was.cacheRead + (u.cache_read_input_tokens ?? 0), cacheWrite: was.cacheWrite + (u.cache_creation_input_tokens ?? 0) } };
}

function addForModel(usage: UsageTotals, model: string, input: number, output: number, cacheRead: number, cacheWrite: number): UsageTotals {
  const was: TokenCounts = usage.byModel[model] ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const now: TokenCounts = { input: was.input + input, output: was.output + output, cacheRead: was.cacheRead + cacheRead, cacheWrite: was.cacheWrite + cacheWrite };
  return { ...usage, byModel: { ...usage.byModel, [model]: now } };
}

function labelOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > LABEL_CHARS ? `${line.slice(0, LABEL_CHARS - 1)}…` : line;
}
