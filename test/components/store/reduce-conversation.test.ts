import { describe, expect, it } from 'vitest';
import { initialState, reduce } from '../../../components/store/reduce.js';
import type { ToolItem, TuiState } from '../../../components/store/types.js';
import type { AgentEvent } from '../../../src/events.js';

function run(events: AgentEvent[], state: TuiState = initialState(), at = 1000): TuiState {
  return events.reduce((s, event, i) => reduce(s, { type: 'event', event, at: at + i }), state);
}
const tools = (s: TuiState): ToolItem[] => s.items.filter((i): i is ToolItem => i.kind === 'tool');
const start = (id: string, name: string, batch: number): AgentEvent => ({ type: 'tool_start', id, name, input: {}, parallel: false, batch });
const ask = (id: string, name: string): AgentEvent => ({ type: 'permission_request', id, name, input: {}, reason: 'r', suggestions: [] });

describe('the store: cards, queue and /clear', () => {
  it('cards have ids of their own: a reused tool id asks under, and updates, only the newest card', () => {
    let s = run([
      { type: 'user_prompt', text: 'go' },
      start('call_0', 'read_file', 1),
      { type: 'tool_result', id: 'call_0', name: 'read_file', content: 'one', is_error: false, duration_ms: 1 },
      start('call_0', 'write_file', 2),
      ask('call_0', 'write_file'),
    ]);
    const [read, write] = tools(s);
    expect(read!.id).not.toBe(write!.id);
    expect([read!.toolUseId, write!.toolUseId]).toEqual(['call_0', 'call_0']);
    expect(s.approvals[0]).toMatchObject({ id: 'call_0', cardId: write!.id });
    expect([read!.status, write!.status]).toEqual(['success', 'awaiting_approval']);
    s = reduce(s, { type: 'approvalAnswered', id: 'call_0', allowed: true, at: 5000 });
    expect(tools(s).map((t) => t.status)).toEqual(['success', 'running']);
  });

  it('an allowed tool\'s timer starts when the approval is given, not when the call arrived', () => {
    let s = run([{ type: 'user_prompt', text: 'go' }, start('t1', 'bash', 1), ask('t1', 'bash')]);
    const askedAt = tools(s)[0]!.startedAt;
    s = reduce(s, { type: 'approvalAnswered', id: 't1', allowed: true, at: askedAt + 30_000 });
    expect(tools(s)[0]).toMatchObject({ status: 'running', startedAt: askedAt + 30_000 });
  });

  it('unqueue: taken prompts go into the editor before the draft, in order; the rest keep waiting', () => {
    let s = reduce(initialState(), { type: 'queue', text: 'one' });
    s = reduce(s, { type: 'queue', text: 'two' });
    s = reduce(s, { type: 'queue', text: 'three' });
    s = reduce(s, { type: 'unqueue', taken: [{ text: 'three' }], remaining: ['one', 'two'] });
    expect(s.queued).toEqual(['one', 'two']);
    expect(s.editor).toMatchObject({ text: 'three', cursor: 5 });
    s = reduce(s, { type: 'unqueue', taken: [{ text: 'one' }, { text: 'two' }], remaining: [] });
    expect(s.queued).toEqual([]);
    expect(s.editor.text).toBe('one\ntwo\nthree');
  });

  it('a clear event empties the transcript, approvals, queue and todos; tokens spent stay counted', () => {
    let s = run([
      { type: 'user_prompt', text: 'old' },
      { type: 'todos', todos: [{ content: 'a', status: 'pending', activeForm: 'a-ing' }] },
      start('t1', 'bash', 1),
      ask('t1', 'bash'),
      { type: 'usage', usage: { input_tokens: 100, output_tokens: 7 }, model: 'claude-sonnet-5-5' },
    ]);
    s = reduce(s, { type: 'queue', text: 'waiting' });
    s = run([{ type: 'clear' }], s);
    expect(s).toMatchObject({ items: [], approvals: [], queued: [], todos: [], busy: false });
    expect(s.usage).toMatchObject({ input: 100, output: 7, context: 0 });
    expect(s.usage.byModel).toEqual({ 'claude-sonnet-5-5': { input: 100, output: 7, cacheRead: 0, cacheWrite: 0 } });
  });

  it('a turn cut at the output limit ends with a terminal item that says so', () => {
    const s = run([
      { type: 'user_prompt', text: 'essay' },
      { type: 'terminal', reason: 'max_tokens', turns: 1, messages: [], error: 'Answer cut at the output limit (16384 output tokens): it is incomplete.' },
    ]);
    expect(s.items.at(-1)).toMatchObject({ kind: 'terminal', reason: 'max_tokens' });
  });
});
