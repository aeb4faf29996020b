import { describe, expect, it } from 'vitest';
import { planFor } from '../../../src/providers/offline-script.js';

describe('offline model: use mcp tool <name> <json>', () => {
  it('calls the named tool with the JSON object as its input', () => {
    expect(planFor('use mcp tool mcp__alpha__echo {"text": "hi there"}')).toEqual({
      kind: 'tools',
      steps: [[{ name: 'mcp__alpha__echo', input: { text: 'hi there' } }]],
    });
    expect(planFor('use mcp tool mcp_list_resources')).toEqual({ kind: 'tools', steps: [[{ name: 'mcp_list_resources', input: {} }]] });
  });

  it('input that is not a JSON object is answered, not guessed', () => {
    expect(planFor('use mcp tool mcp__a__b {nope')).toMatchObject({ kind: 'chat', text: expect.stringMatching(/not a JSON object/) });
    expect(planFor('use mcp tool mcp__a__b [1]')).toMatchObject({ kind: 'chat', text: expect.stringMatching(/must be a JSON object/) });
  });
});
