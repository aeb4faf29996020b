import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initialState, reduce } from '../../../components/store/reduce.js';
import { parseRecording } from '../../../components/store/replay.js';
import type { TuiState } from '../../../components/store/types.js';
import type { AgentEvent } from '../../../src/events.js';

function fixture(name: string): AgentEvent[] {
  const file = `test/fixtures/events/${name}.jsonl`;
  return parseRecording(readFileSync(file, 'utf8'), file).map((r) => r.event);
}

const oneByOne = (events: AgentEvent[], state: TuiState = initialState()): TuiState => events.reduce((s, event) => reduce(s, { type: 'event', event, at: 5 }), state);

describe('applying a recorded session at once', () => {
  it('ends in the same transcript and usage as applying the events one by one', () => {
    const events = ['read-read-write', 'bash-echo', 'think', 'write-denied', 'stream'].flatMap(fixture).filter((e) => e.type !== 'permission_request');
    const expected = oneByOne(events);
    const s = reduce(initialState(), { type: 'recorded', events, at: 5 });
    expect(s.items).toEqual(expected.items);
    expect(s.nextId).toBe(expected.nextId);
    expect(s.usage).toEqual(expected.usage);
    expect(s.busy).toBe(false);
  });

  it('closes a turn a crash cut off: its running card is marked interrupted, nothing keeps spinning', () => {
    const cut: AgentEvent[] = [
      { type: 'user_prompt', text: 'run the tests' },
      { type: 'tool_start', id: 't1', name: 'bash', input: { command: 'npm test' }, parallel: false, batch: 1 },
      { type: 'user_prompt', text: 'read a.txt' },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } },
    ];
    const s = reduce(initialState(), { type: 'recorded', events: cut, at: 5 });
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'tool', 'user', 'assistant']);
    expect(s.items[1]).toMatchObject({ kind: 'tool', status: 'interrupted' });
    expect(s.busy).toBe(false);
    expect(s.phase).toBeUndefined();
  });

  it('a /clear in the recording: the resumed transcript starts after it, like the conversation', () => {
    const events: AgentEvent[] = [
      { type: 'user_prompt', text: 'an older task' },
      { type: 'terminal', reason: 'completed', turns: 1, messages: [] },
      { type: 'user_prompt', text: 'the old task' },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'old answer' }] } },
      { type: 'terminal', reason: 'completed', turns: 1, messages: [] },
      { type: 'clear' },
      { type: 'user_prompt', text: 'the new task' },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'new answer' }] } },
    ];
    const s = reduce(initialState(), { type: 'recorded', events, at: 5 });
    expect(s.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind))).toEqual(['the new task', 'new answer']);
  });
});
