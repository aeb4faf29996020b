import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events.js';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

function unwrap(e: AgentEvent): { path: string[]; event: AgentEvent } {
  const path: string[] = [];
  let d = e;
  while (d.type === 'subagent') {
    path.push(d.parent_id);
    d = d.event;
  }
  return { path, event: d };
}

describe('subagents end to end (offline model, headless)', () => {
  it('two read-only subagents run in parallel; their events nest under their own agent call', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'alpha\nbeta\n' });
    const run = await runCairn(['-p', 'use two subagents to read a.txt and b.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    const starts = ofType(run.events, 'tool_start');
    expect(starts.map((s) => [s.name, s.parallel])).toEqual([['agent', true], ['agent', true]]);
    const [first, second] = starts.map((s) => s.id);
    const nested = run.events.map(unwrap).filter((u) => u.path.length === 1);
    const readsUnder = (id: string) => nested.filter((u) => u.path[0] === id && u.event.type === 'tool_result').map((u) => (u.event as { content: string }).content);
    expect(readsUnder(first!).join()).toMatch(/one/);
    expect(readsUnder(second!).join()).toMatch(/alpha/);
    // Both children had started before either finished.
    const order = run.events.map(unwrap).filter((u) => u.path.length === 1 && (u.event.type === 'turn_start' || u.event.type === 'terminal')).map((u) => `${u.event.type}:${u.path[0]}`);
    expect(order.indexOf(`turn_start:${second}`)).toBeLessThan(order.indexOf(`terminal:${first}`));
    const end = ofType(run.events, 'terminal')[0]!;
    expect(end.result).toMatch(/explore subagent \(read a.txt\) reported: .*3 lines/);
    expect(end.result).toMatch(/explore subagent \(read b.txt\) reported: .*2 lines/);
    // Child usage is visible to the session.
    expect(run.events.map(unwrap).filter((u) => u.path.length === 1 && u.event.type === 'usage').length).toBeGreaterThanOrEqual(4);
  });

  it('a subagent in headless mode cannot be asked: its write is denied with a reason', async () => {
    const ws = await tempWorkspace({});
    const run = await runCairn(['-p', 'use a subagent to write hi to x.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    const denied = run.events.map(unwrap).filter((u) => u.path.length === 1 && u.event.type === 'permission_denied');
    expect(denied).toHaveLength(1);
    expect((denied[0]!.event as { reason: string }).reason).toMatch(/no one can be asked/);
  });
});
