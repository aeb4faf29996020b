import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/events.js';
import { agentStart, toolStart, twoSubagents, wrap } from '../helpers/subagent-events.js';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

function emitAll(r: Rig, events: AgentEvent[]): void {
  for (const e of events) r.session.emit(e);
}

const lineOf = (frame: string, text: string): number => frame.split('\n').findIndex((l) => l.includes(text));

describe('subagent cards', () => {
  it('two parallel subagents: two live agent cards in one group, each with its own nested read card and activity', async () => {
    rig = await createRig({ rows: 30, columns: 100 });
    emitAll(rig, twoSubagents());
    const f = await rig.waitFrame((fr) => fr.includes('read_file b.txt') && fr.includes('read_file a.txt'), 'nested cards');
    expect(f).toContain('2 tools running together');
    const a = lineOf(f, 'agent explore: read a.txt');
    const b = lineOf(f, 'agent explore: read b.txt');
    const readA = lineOf(f, 'read_file a.txt');
    const readB = lineOf(f, 'read_file b.txt');
    // Each read sits under its own agent card, indented one level.
    expect(a).toBeGreaterThanOrEqual(0);
    expect([a < readA, readA < b, b < readB]).toEqual([true, true, true]);
    const lines = f.split('\n');
    expect(lines[readA]).toMatch(/^┃ {3}✓ read_file a\.txt/);
    // The activity line: type, turn, tokens and what it does now.
    expect(lines[a + 1]).toMatch(/explore · turn 2 · 120 tokens · thinking/);
    expect(lines[b + 1]).toMatch(/explore · turn 2 · 100 tokens/);
    // Both headers are live (spinner), and child tokens count in the status bar.
    expect(lines[a]).not.toMatch(/✓/);
    expect(f).toMatch(/↑190 ↓30/);
  });

  it('a finished subagent folds to its header with turns and tokens; Space in selection mode unfolds its nested cards and report', async () => {
    rig = await createRig({ rows: 30, columns: 100 });
    emitAll(rig, [...twoSubagents({ finish: true }), { type: 'terminal', reason: 'completed', turns: 1, messages: [] }]);
    let f = await rig.waitFrame((fr) => /✓ agent explore: read b\.txt/.test(fr), 'finished cards');
    expect(f).toMatch(/✓ agent explore: read a\.txt\s+2 turns · 300 tokens/);
    expect(f).not.toContain('read_file a.txt');
    await rig.press(KEYS.tab); // selection starts on the last card (agent b)
    await rig.press(KEYS.up, ' ');
    f = await rig.waitFrame((fr) => fr.includes('read_file a.txt'), 'unfolded card');
    expect(f).toContain('a.txt has 3 lines');
    expect(f).not.toContain('read_file b.txt');
    // Down moves into the nested card: nested cards are selectable like any other.
    await rig.press(KEYS.down);
    expect(rig.store.getSnapshot().selectedId).toMatch(/›/);
  });

  it('a subagent’s permission prompt renders inline under its nested card, labelled with the agent; y answers that request', async () => {
    rig = await createRig({ rows: 30, columns: 100 });
    const respond = vi.spyOn(rig.session, 'respond');
    const A = 'toolu_off_1_0';
    emitAll(rig, [
      { type: 'user_prompt', text: 'use a subagent to write hi to x.txt' },
      agentStart(A, 'general', 'write hi to x.txt', 1, false),
      wrap(A, { type: 'turn_start', turn: 1 }, 'general'),
      wrap(A, toolStart('toolu_off_1_0', 'write_file', { path: 'x.txt', content: 'hi\n' }), 'general'),
      wrap(
        A,
        { type: 'permission_request', id: 'toolu_off_1_0', name: 'write_file', input: { path: 'x.txt' }, reason: 'write_file changes the workspace', suggestions: ['Edit(x.txt)'], agent: 'general subagent' },
        'general',
      ),
    ]);
    const f = await rig.waitFrame((fr) => fr.includes('Allow write_file?'), 'the approval');
    expect(f).toMatch(/Allow write_file\? \(agent: general subagent\)/);
    expect(lineOf(f, 'agent general: write hi to x.txt')).toBeLessThan(lineOf(f, 'write_file x.txt'));
    expect(lineOf(f, 'write_file x.txt')).toBeLessThan(lineOf(f, 'Allow write_file?'));
    expect(f).toMatch(/general · turn 1 · 0 tokens · ▸ write_file x\.txt/);
    rig.settle();
    await rig.press('y');
    expect(respond).toHaveBeenCalledWith('toolu_off_1_0', { behavior: 'allow' });
    const after = await rig.waitFrame((fr) => !fr.includes('Allow write_file?'), 'the prompt gone');
    expect(after).toContain('write_file x.txt');
    expect(rig.store.getSnapshot().approvals).toEqual([]);
  });
});
