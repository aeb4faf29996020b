import type { AgentEvent, EventOf } from '../../src/events.js';
import type { DisplayOf } from '../../src/tools/display.js';

// Builders for the events a parent sees while its subagents work (constructed, in the shapes the
// engine emits: each child event wrapped once per level, ids only unique within one history).

export function wrap(parentId: string, event: AgentEvent, agentType = 'explore', depth = 1): EventOf<'subagent'> {
  return { type: 'subagent', parent_id: parentId, agent_type: agentType, depth, event };
}

/** Wraps for a grandchild: `outer` is the main agent's agent call, `inner` the child's. */
export function wrap2(outer: string, inner: string, event: AgentEvent, agentType = 'explore'): EventOf<'subagent'> {
  return wrap(outer, wrap(inner, event, agentType, 2), 'general', 1);
}

export function agentStart(id: string, type: string, description: string, batch = 1, parallel = true): EventOf<'tool_start'> {
  // The view the agent tool's describe gives (src/agents/agent-tool.ts).
  return { type: 'tool_start', id, name: 'agent', input: { type, task: description, description }, parallel, batch, view: { title: `${type}: ${description}`, subject: { kind: 'input' } } };
}

export function toolStart(id: string, name: string, input: Record<string, unknown>, batch = 1, parallel = false): EventOf<'tool_start'> {
  return { type: 'tool_start', id, name, input, parallel, batch };
}

export function toolResult(id: string, name: string, content: string, extra: Partial<EventOf<'tool_result'>> = {}): EventOf<'tool_result'> {
  return { type: 'tool_result', id, name, content, is_error: false, duration_ms: 3, ...extra };
}

export function usage(input: number, output: number): EventOf<'usage'> {
  return { type: 'usage', usage: { input_tokens: input, output_tokens: output } };
}

export function terminal(result: string, turns = 2): EventOf<'terminal'> {
  return { type: 'terminal', reason: 'completed', turns, messages: [], result };
}

export function readDisplay(total: number, path = 'a.txt'): DisplayOf<'read_file'> {
  return { kind: 'read_file', path, startLine: 1, endLine: total, totalLines: total };
}

/**
 * Two explore subagents reading a.txt and b.txt at once, events interleaved as the engine would
 * emit them. Both children number their first tool call `toolu_off_1_0`, like the offline model.
 */
export function twoSubagents(opts: { finish?: boolean } = {}): AgentEvent[] {
  const A = 'toolu_off_1_0';
  const B = 'toolu_off_1_1';
  const events: AgentEvent[] = [
    { type: 'user_prompt', text: 'use two subagents to read a.txt and b.txt' },
    { type: 'turn_start', turn: 1 },
    agentStart(A, 'explore', 'read a.txt'),
    agentStart(B, 'explore', 'read b.txt'),
    wrap(A, { type: 'turn_start', turn: 1 }),
    wrap(B, { type: 'turn_start', turn: 1 }),
    wrap(A, usage(100, 20)),
    wrap(A, toolStart('toolu_off_1_0', 'read_file', { path: 'a.txt' })),
    wrap(B, usage(90, 10)),
    wrap(B, toolStart('toolu_off_1_0', 'read_file', { path: 'b.txt' })),
    wrap(B, toolResult('toolu_off_1_0', 'read_file', 'alpha\nbeta\n', { display: readDisplay(2, 'b.txt') })),
    wrap(A, toolResult('toolu_off_1_0', 'read_file', 'one\ntwo\nthree\n', { display: readDisplay(3) })),
    wrap(B, { type: 'turn_start', turn: 2 }),
    wrap(A, { type: 'turn_start', turn: 2 }),
  ];
  if (!opts.finish) return events;
  return [
    ...events,
    wrap(A, usage(150, 30)),
    wrap(A, terminal('a.txt has 3 lines')),
    toolResult(A, 'agent', 'a.txt has 3 lines', { display: { kind: 'agent', agent: 'explore', turns: 2, reason: 'completed' } }),
    wrap(B, usage(140, 25)),
    wrap(B, terminal('b.txt has 2 lines')),
    toolResult(B, 'agent', 'b.txt has 2 lines', { display: { kind: 'agent', agent: 'explore', turns: 2, reason: 'completed' } }),
  ];
}
