import { describe, expect, it } from 'vitest';
import { usageReport } from '../../../components/commands/usage-report.js';
import { initialState, reduce } from '../../../components/store/reduce.js';
import { USAGE_TURNS_KEPT } from '../../../components/store/reduce-usage.js';
import type { TuiState } from '../../../components/store/types.js';
import type { AgentEvent } from '../../../src/events.js';

function run(events: AgentEvent[], state: TuiState = initialState({ contextLimit: 100_000 })): TuiState {
  return events.reduce((s, event, i) => reduce(s, { type: 'event', event, at: i }), state);
}

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0): AgentEvent => ({
  type: 'usage',
  usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheWrite },
});
const sub = (event: AgentEvent): AgentEvent => ({ type: 'subagent', parent_id: 'toolu_1', agent_type: 'explore', depth: 1, event });

describe('usage accounting', () => {
  it("auto mode's classifier calls count in the totals and get their own /usage line with tokens and cost; they never move the context bar", () => {
    const s = run([
      { type: 'user_prompt', text: 'deploy it' },
      { type: 'usage', usage: { input_tokens: 2000, output_tokens: 100 }, model: 'claude-sonnet-5-5' },
      { type: 'usage', usage: { input_tokens: 600, output_tokens: 20 }, model: 'claude-sonnet-5-5', for: 'classifier' },
    ]);
    expect(s.usage).toMatchObject({ input: 2600, output: 120, calls: 2, context: 2100 });
    expect(s.usage.classifier.calls).toBe(1);
    expect(usageReport(s)).toMatch(/Auto mode classifier: 1 call, 600 input, 20 output tokens, \$\d+\.\d+ \(included above\)\./);
    expect(usageReport(run([usage(1, 1)]))).not.toMatch(/classifier/);
  });

  it('totals every call, subagents included; the context bar follows only the main agent', () => {
    const s = run([
      { type: 'user_prompt', text: 'read a.txt' },
      usage(100, 20, 1000, 50),
      sub(usage(300, 40, 0, 0)),
      sub(sub(usage(7, 3))),
      { type: 'user_prompt', text: 'now write it\nwith two lines' },
      usage(10, 5, 1200, 0),
    ]);
    expect(s.usage).toMatchObject({ input: 417, output: 68, cacheRead: 2200, cacheWrite: 50, calls: 4 });
    // The last main call: input + cache read + cache write + output.
    expect(s.usage.context).toBe(10 + 1200 + 5);
    expect(s.usage.turns).toEqual([
      { label: 'read a.txt', input: 407, output: 63, cacheRead: 1000, cacheWrite: 50, calls: 3 },
      { label: 'now write it', input: 10, output: 5, cacheRead: 1200, cacheWrite: 0, calls: 1 },
    ]);
  });

  it('a compaction sets the context to its tokens after; only the recent turns are kept', () => {
    const events: AgentEvent[] = [];
    for (let i = 0; i < USAGE_TURNS_KEPT + 5; i++) events.push({ type: 'user_prompt', text: `p${i}` }, usage(1, 1));
    events.push({ type: 'compact', trigger: 'manual', tokens_before: 5000, tokens_after: 400, summary: 's', messages: [] });
    const s = run(events);
    expect(s.usage.context).toBe(400);
    expect(s.usage.calls).toBe(USAGE_TURNS_KEPT + 5);
    expect(s.usage.turns).toHaveLength(USAGE_TURNS_KEPT);
    expect(s.usage.turns[0]?.label).toBe('p5');
  });

  it('/usage reports totals, cache reads and per-turn deltas', () => {
    const s = run([{ type: 'user_prompt', text: 'read a.txt' }, usage(1500, 200, 4500, 0), { type: 'user_prompt', text: 'again' }, usage(50, 10, 6000, 100)]);
    const text = usageReport(s);
    expect(text).toContain('Session: 1.6k input, 210 output tokens.');
    expect(text).toContain('Cache: 10.5k read, 100 written (86% of prompt tokens from cache) · 2 model calls.');
    expect(text).toContain('Context: 6.2k of 100k (6%).');
    const rows = text.split('\n').slice(-3).map((l) => l.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ['calls', 'input', 'output', 'cache read', 'cache write', 'prompt'],
      ['1', '+1.5k', '+200', '4.5k', '0', 'read a.txt'],
      ['1', '+50', '+10', '6.0k', '100', 'again'],
    ]);
  });
});
