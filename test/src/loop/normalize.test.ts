import { describe, expect, it } from 'vitest';
import { INTERRUPTED_RESULT, normalizeMessages } from '../../../src/loop/normalize.js';
import type { Message } from '../../../src/messages.js';

const use = (id: string): Message => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'read_file', input: { path: 'a' } }] });

describe('normalizeMessages', () => {
  it('leaves a valid history untouched and reports nothing', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      use('t1'),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
    ];
    const { messages, repairs } = normalizeMessages(history);
    expect(repairs).toEqual([]);
    expect(messages).toEqual(history);
  });

  it('moves tool_result blocks before other content of the user message', () => {
    const { messages, repairs } = normalizeMessages([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      use('t1'),
      { role: 'user', content: [{ type: 'text', text: 'also this' }, { type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
    ]);
    expect(messages[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(repairs.join()).toMatch(/moved tool results/);
  });

  it('adds a placeholder result for an unpaired tool_use, in call order', () => {
    const { messages, repairs } = normalizeMessages([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [
        { type: 'tool_use', id: 'a', name: 'read_file', input: {} },
        { type: 'tool_use', id: 'b', name: 'bash', input: {} },
      ] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: 'done' }] },
    ]);
    const results = messages[2]!.content;
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: INTERRUPTED_RESULT, is_error: true },
      { type: 'tool_result', tool_use_id: 'b', content: 'done' },
    ]);
    expect(repairs).toHaveLength(1);
    expect(repairs[0]).toMatch(/placeholder.*read_file/);
  });

  it('adds the result message when history ends on tool calls', () => {
    const { messages } = normalizeMessages([{ role: 'user', content: [{ type: 'text', text: 'go' }] }, use('t1')]);
    expect(messages).toHaveLength(3);
    expect(messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 't1', is_error: true });
  });

  it('strips internal underscore fields', () => {
    const block = { type: 'text', text: 'hi', _display: { x: 1 } } as unknown as Message['content'][number];
    const { messages, repairs } = normalizeMessages([{ role: 'user', content: [block] }]);
    expect(messages[0]!.content[0]).toEqual({ type: 'text', text: 'hi' });
    expect(repairs.join()).toMatch(/internal fields/);
  });

  it('fills empty content and drops empty text blocks', () => {
    const { messages, repairs } = normalizeMessages([
      { role: 'user', content: [] },
      { role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'text', text: 'answer' }] },
    ]);
    expect(messages[0]!.content).toEqual([{ type: 'text', text: '(empty)' }]);
    expect(messages[1]!.content).toEqual([{ type: 'text', text: 'answer' }]);
    expect(repairs).toHaveLength(2);
  });

  it('drops tool results that answer no call, and merges consecutive user messages', () => {
    const { messages, repairs } = normalizeMessages([
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'ghost', content: 'x' }, { type: 'text', text: 'second' }] },
    ]);
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }] }]);
    expect(repairs.join()).toMatch(/no matching call/);
  });

  it('does not mutate its input', () => {
    const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, use('t1')];
    const copy = structuredClone(history);
    normalizeMessages(history);
    expect(history).toEqual(copy);
  });
});
