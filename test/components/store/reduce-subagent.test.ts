import { describe, expect, it } from 'vitest';
import { initialState, reduce } from '../../../components/store/reduce.js';
import { findToolDeep, nestedId } from '../../../components/store/subagent-state.js';
import type { ToolItem, TuiState } from '../../../components/store/types.js';
import type { AgentEvent, EventOf } from '../../../src/events.js';
import { agentStart, terminal, toolResult, toolStart, twoSubagents, usage, wrap, wrap2 } from '../../helpers/subagent-events.js';

function run(events: AgentEvent[], state: TuiState = initialState()): TuiState {
  return events.reduce((s, event, i) => reduce(s, { type: 'event', event, at: 1000 + i }), state);
}
const topTools = (s: TuiState): ToolItem[] => s.items.filter((i): i is ToolItem => i.kind === 'tool');

describe('subagent events in the store', () => {
  it('two parallel subagents with interleaved events: each nested card lands under its own agent card', () => {
    const s = run(twoSubagents());
    // Only the two agent calls are top-level cards; the reads live inside them.
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'tool', 'tool']);
    const [a, b] = topTools(s);
    expect([a!.name, a!.parallel, b!.name, b!.parallel, a!.batch === b!.batch]).toEqual(['agent', true, 'agent', true, true]);
    expect(a!.child?.tools.map((t) => [t.name, (t.input as { path: string }).path, t.status, t.result])).toEqual([['read_file', 'a.txt', 'success', 'one\ntwo\nthree\n']]);
    expect(b!.child?.tools.map((t) => [t.name, (t.input as { path: string }).path, t.status, t.result])).toEqual([['read_file', 'b.txt', 'success', 'alpha\nbeta\n']]);
    // Both children numbered their call toolu_off_1_0; the nested ids keep them apart.
    expect(a!.child!.tools[0]!.id).not.toBe(b!.child!.tools[0]!.id);
    expect(a!.child).toMatchObject({ agentType: 'explore', depth: 1, turns: 2, input: 100, output: 20, startedAt: 1004 });
    expect(b!.child).toMatchObject({ turns: 2, input: 90, output: 10 });
    expect([a!.status, b!.status]).toEqual(['running', 'running']);
  });

  it('finishing: the agent cards get their reports, the children end, child tokens count for the session', () => {
    const s = run(twoSubagents({ finish: true }));
    const [a, b] = topTools(s);
    expect([a!.status, a!.result, b!.status, b!.result]).toEqual(['success', 'a.txt has 3 lines', 'success', 'b.txt has 2 lines']);
    expect(a!.child!.ended?.reason).toBe('completed');
    expect(a!.child).toMatchObject({ input: 250, output: 50 });
    expect(s.usage.input).toBe(100 + 90 + 150 + 140);
    expect(s.usage.output).toBe(20 + 10 + 30 + 25);
  });

  it('depth 2: a grandchild’s cards nest inside the child’s agent card, and its tokens roll up', () => {
    const A = 'toolu_A';
    const events: AgentEvent[] = [
      { type: 'user_prompt', text: 'go' },
      agentStart(A, 'general', 'dig deep', 1, false),
      wrap(A, { type: 'turn_start', turn: 1 }, 'general'),
      wrap(A, agentStart('toolu_off_1_0', 'explore', 'look around', 1, false), 'general'),
      wrap2(A, 'toolu_off_1_0', { type: 'turn_start', turn: 1 }),
      wrap2(A, 'toolu_off_1_0', toolStart('toolu_off_1_0', 'grep', { pattern: 'TODO' })),
      wrap2(A, 'toolu_off_1_0', usage(40, 5)),
      wrap2(A, 'toolu_off_1_0', toolResult('toolu_off_1_0', 'grep', 'x.ts:1: TODO')),
      wrap2(A, 'toolu_off_1_0', terminal('one TODO in x.ts', 1)),
      wrap(A, toolResult('toolu_off_1_0', 'agent', 'one TODO in x.ts'), 'general'),
    ];
    const s = run(events);
    const [top] = topTools(s);
    const child = top!.child!;
    expect(child.tools.map((t) => t.name)).toEqual(['agent']);
    const inner = child.tools[0]!;
    expect(inner).toMatchObject({ status: 'success', result: 'one TODO in x.ts' });
    expect(inner.child).toMatchObject({ agentType: 'explore', depth: 2, turns: 1, input: 40, output: 5 });
    expect(inner.child!.tools.map((t) => [t.name, t.status, t.result])).toEqual([['grep', 'success', 'x.ts:1: TODO']]);
    expect(inner.child!.ended?.reason).toBe('completed');
    // The grandchild's tokens count for the child too.
    expect(child).toMatchObject({ input: 40, output: 5 });
    // Nested ids start from the top card's own id (not the provider's tool id).
    expect(top!.toolUseId).toBe(A);
    expect(findToolDeep(s.items, nestedId(nestedId(top!.id, 'toolu_off_1_0'), 'toolu_off_1_0'))?.name).toBe('grep');
  });

  it('a subagent’s permission request queues with its nested card; answering marks that card, not a same-id one elsewhere', () => {
    const [A, B] = ['toolu_off_1_0', 'toolu_off_1_1'];
    let s = run([
      { type: 'user_prompt', text: 'go' },
      agentStart(A, 'general', 'write x'),
      agentStart(B, 'general', 'write y'),
      wrap(A, toolStart('toolu_off_1_1', 'write_file', { path: 'x.txt' }), 'general'),
      wrap(A, { type: 'permission_request', id: 'toolu_off_1_1', name: 'write_file', input: { path: 'x.txt' }, reason: 'changes files', suggestions: [], agent: 'general subagent' }, 'general'),
    ]);
    const cardA = topTools(s)[0]!.id;
    expect(s.approvals).toHaveLength(1);
    expect(s.approvals[0]).toMatchObject({ id: 'toolu_off_1_1', agent: 'general subagent', cardId: nestedId(cardA, 'toolu_off_1_1') });
    expect(findToolDeep(s.items, nestedId(cardA, 'toolu_off_1_1'))?.status).toBe('awaiting_approval');
    s = reduce(s, { type: 'approvalAnswered', id: 'toolu_off_1_1', allowed: true });
    expect(s.approvals).toEqual([]);
    expect(findToolDeep(s.items, nestedId(cardA, 'toolu_off_1_1'))?.status).toBe('running');
    // The top-level card B has the same raw id and is left alone.
    expect(topTools(s)[1]).toMatchObject({ toolUseId: B, status: 'running' });
    expect(topTools(s)[1]!.child).toBeUndefined();

    s = run([wrap(A, { type: 'permission_request', id: 'toolu_off_2_0', name: 'bash', input: { command: 'rm x' }, reason: 'r', suggestions: [], agent: 'general subagent' }, 'general')], s);
    s = run([wrap(A, { type: 'permission_denied', id: 'toolu_off_2_0', name: 'bash', reason: 'the user said no' }, 'general')], s);
    expect(s.approvals).toEqual([]);
  });

  it('two parallel subagents ask under the same tool_use id: each answer takes only its own ask off, and marks only its card', () => {
    const [A, B, same] = ['toolu_A', 'toolu_B', 'toolu_same'];
    const ask = (path: string, requestId: string): EventOf<'permission_request'> => ({ type: 'permission_request', id: same, request_id: requestId, name: 'read_file', input: { path }, reason: 'outside', suggestions: [], agent: 'explore subagent' });
    let s = run([
      { type: 'user_prompt', text: 'go' },
      agentStart(A, 'explore', 'read a'),
      agentStart(B, 'explore', 'read b'),
      wrap(A, toolStart(same, 'read_file', { path: '/x/a.txt' })),
      wrap(B, toolStart(same, 'read_file', { path: '/x/b.txt' })),
      wrap(A, ask('/x/a.txt', 'ask_a')),
      wrap(B, ask('/x/b.txt', 'ask_b')),
    ]);
    const [cardA, cardB] = topTools(s).map((t) => t.id);
    expect(s.approvals.map((a) => [a.request_id, a.cardId])).toEqual([['ask_a', nestedId(cardA!, same)], ['ask_b', nestedId(cardB!, same)]]);
    // B's ask is answered first (by its own id): A's stays at the head, its card still waiting.
    s = reduce(s, { type: 'approvalAnswered', id: 'ask_b', allowed: true });
    expect(s.approvals.map((a) => a.request_id)).toEqual(['ask_a']);
    expect(findToolDeep(s.items, nestedId(cardB!, same))?.status).toBe('running');
    expect(findToolDeep(s.items, nestedId(cardA!, same))?.status).toBe('awaiting_approval');
    // The shared tool_use id names no ask.
    expect(reduce(s, { type: 'approvalAnswered', id: same, allowed: true }).approvals.map((a) => a.request_id)).toEqual(['ask_a']);
    s = reduce(s, { type: 'approvalAnswered', id: 'ask_a', allowed: false });
    expect(s.approvals).toEqual([]);
    expect(findToolDeep(s.items, nestedId(cardA!, same))?.status).toBe('awaiting_approval'); // its permission_denied event settles it
  });

  it('session-wide events from inside a subagent reach the session: todos, shell and cron notices', () => {
    const todos = [{ content: 'Read a', status: 'in_progress' as const, activeForm: 'Reading a' }];
    const s = run([
      { type: 'user_prompt', text: 'go' },
      agentStart('A', 'general', 'plan'),
      wrap('A', { type: 'todos', todos }, 'general'),
      wrap('A', { type: 'background_shell', id: 'sh1', command: 'sleep 1', status: 'completed', exit_code: 0 }, 'general'),
    ]);
    expect(s.todos).toEqual(todos);
    expect(s.items.some((i) => i.kind === 'notice' && /sh1 completed/.test(i.message))).toBe(true);
  });

  it('events for an agent call with no card (a cron auto-run) change nothing', () => {
    const before = run([{ type: 'user_prompt', text: 'go' }]);
    const after = run([wrap('cron-1234', toolStart('t1', 'read_file', { path: 'a' }), 'general')], before);
    expect(after.items).toBe(before.items);
  });
});

describe('cron, shells, todos and toasts in the store', () => {
  it('a fired task becomes a cron card and a toast; the toast expires, the card stays', () => {
    let s = run([{ type: 'cron', task_id: 'ab12', schedule: '*/5 * * * *', prompt: 'check the build', status: 'fired' }]);
    expect(s.items).toMatchObject([{ kind: 'cron', taskId: 'ab12', schedule: '*/5 * * * *', status: 'fired' }]);
    expect(s.toasts).toMatchObject([{ text: '⏰ fired: check the build', at: 1000 }]);
    s = reduce(s, { type: 'toastExpire', now: 2000 });
    expect(s.toasts).toHaveLength(1);
    s = reduce(s, { type: 'toastExpire', now: 1000 + 60_000 });
    expect(s.toasts).toEqual([]);
    expect(s.items).toHaveLength(1);
  });

  it('created and plain deleted tasks make no card (the tool card shows them); expiry does', () => {
    const s = run([
      { type: 'cron', task_id: 'a', schedule: '* * * * *', prompt: 'p', status: 'created' },
      { type: 'cron', task_id: 'a', schedule: '* * * * *', prompt: 'p', status: 'deleted' },
      { type: 'cron', task_id: 'b', schedule: '* * * * *', prompt: 'q', status: 'deleted', result: 'expired 7 days after creation' },
    ]);
    expect(s.items.map((i) => (i.kind === 'cron' ? i.taskId : i.kind))).toEqual(['b']);
  });

  it('the latest todos event wins; background counts come from the runtime', () => {
    let s = run([
      { type: 'todos', todos: [{ content: 'a', status: 'pending', activeForm: 'A-ing' }] },
      { type: 'todos', todos: [{ content: 'a', status: 'completed', activeForm: 'A-ing' }] },
    ]);
    expect(s.todos.map((t) => t.status)).toEqual(['completed']);
    s = reduce(s, { type: 'background', cron: 2, shells: 1 });
    expect(s.background).toEqual({ cron: 2, shells: 1 });
    expect(reduce(s, { type: 'background', cron: 2, shells: 1 })).toBe(s);
  });

  it('a toggled nested card keeps its own expansion', () => {
    let s = run(twoSubagents());
    const id = topTools(s)[0]!.child!.tools[0]!.id;
    s = reduce(s, { type: 'toggle', id, currentlyExpanded: false });
    expect(findToolDeep(s.items, id)?.userExpanded).toBe(true);
    expect(topTools(s)[1]!.child!.tools[0]!.userExpanded).toBeUndefined();
  });
});

describe('an interrupted subagent', () => {
  it('reads as interrupted, not failed, when the agent tool reports the interruption as an error', () => {
    const s = run([
      { type: 'user_prompt', text: 'go' },
      agentStart('A', 'explore', 'read a.txt'),
      wrap('A', toolStart('t1', 'read_file', { path: 'a.txt' })),
      wrap('A', { type: 'terminal', reason: 'aborted', turns: 1, messages: [] }),
      toolResult('A', 'agent', 'The explore subagent was interrupted.', { is_error: true }),
    ]);
    const [a] = topTools(s);
    expect(a!.status).toBe('interrupted');
    expect(a!.child!.tools[0]!.status).toBe('interrupted');
    expect(a!.child!.ended?.reason).toBe('aborted');
  });
});
