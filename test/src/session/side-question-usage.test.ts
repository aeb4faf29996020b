import { describe, expect, it } from 'vitest';
import { reduceUsage, emptyUsage } from '../../../components/store/reduce-usage.js';
import type { AgentEvent } from '../../../src/events.js';
import { builtinPriceTable } from '../../../src/pricing.js';
import type { ModelProvider, ModelRequest } from '../../../src/providers/provider.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { SpendCap } from '../../../src/session/spend-cap.js';
import { allowEverything } from '../../helpers/real-permissions.js';

// /btw is a model call of its own: its tokens count in /usage and against the spending cap like any other call,
// and it is refused once the cap is reached.

const MODEL = 'claude-opus-5';

function answering(calls: ModelRequest[]): ModelProvider {
  return {
    name: 'anthropic',
    model: MODEL,
    api: 'anthropic',
    async *stream(request) {
      calls.push(request);
      yield { type: 'text_delta', text: 'Teal.' };
      yield { type: 'usage', usage: { input_tokens: 120_000, output_tokens: 400 } };
      yield { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Teal.' }] }, stopReason: 'end_turn' };
    },
  };
}

async function session(provider: ModelProvider, spendCap?: SpendCap): Promise<{ session: AgentSession; events: AgentEvent[] }> {
  const s = new AgentSession({ provider, tools: [], permissions: await allowEverything(), cwd: '/tmp', system: () => 's', interactive: true, ...(spendCap ? { spendCap } : {}) });
  const events: AgentEvent[] = [];
  s.subscribe((e) => events.push(e));
  return { session: s, events };
}

describe('/btw and the token accounting', () => {
  it("counts the side question's tokens in the totals, not as the context window's size", async () => {
    const calls: ModelRequest[] = [];
    const { session: s, events } = await session(answering(calls));
    const answer = await s.askAside('which colour?', new AbortController().signal);
    expect(answer).toEqual({ ok: true, text: 'Teal.' });
    expect(events).toEqual([{ type: 'usage', usage: { input_tokens: 120_000, output_tokens: 400 }, model: MODEL, for: 'side_question' }]);
    const totals = events.reduce(reduceUsage, emptyUsage);
    expect(totals.input).toBe(120_000);
    expect(totals.output).toBe(400);
    expect(totals.calls).toBe(1);
    expect(totals.byModel[MODEL]).toEqual({ input: 120_000, output: 400, cacheRead: 0, cacheWrite: 0 });
    expect(totals.context).toBe(0);
  });

  it('counts against the spending cap, and is refused once the cap is reached', async () => {
    const calls: ModelRequest[] = [];
    // $5 per million input tokens: 120,000 input tokens and 400 output cost $0.61, over a $0.50 cap.
    const cap = new SpendCap({ usd: 0.5, source: '--max-budget-usd' }, builtinPriceTable);
    const { session: s } = await session(answering(calls), cap);
    expect((await s.askAside('first', new AbortController().signal)).ok).toBe(true);
    expect(cap.spentUsd).toBeCloseTo(0.61, 2);
    const refused = await s.askAside('second', new AbortController().signal);
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.error).toMatch(/^Spending cap reached: \$0\.61 spent, cap \$0\.50 \(--max-budget-usd\)/);
    expect(calls).toHaveLength(1);
  });
});
