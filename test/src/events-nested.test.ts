import { expect, it } from 'vitest';
import { AgentEventSchema } from '../../src/events.js';
it('nested', () => {
  const e = { type: 'subagent', parent_id: 'p', agent_type: 'explore', depth: 1, event: { type: 'subagent', parent_id: 'q', agent_type: 'x', depth: 2, event: { type: 'text_delta', text: 'hi' } } };
  expect(AgentEventSchema.parse(e)).toEqual(e);
  expect(() => AgentEventSchema.parse({ ...e, event: { type: 'text_delta' } })).toThrow();
});
