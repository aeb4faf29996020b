import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { partitionToolCalls } from '../../../src/loop/partition.js';
import type { ToolUseBlock } from '../../../src/messages.js';
import { defineTool, type AnyTool } from '../../../src/tools/tool.js';

const schema = z.object({ path: z.string() });
const reader = defineTool({ name: 'read', description: '', kind: 'read', inputSchema: schema, effects: () => 'none' as const, isConcurrencySafe: () => true, call: async () => ({ content: '' }) });
const writer = defineTool({ name: 'write', description: '', kind: 'edit', inputSchema: schema, call: async () => ({ content: '' }) });
const throwing = defineTool({ name: 'weird', description: '', kind: 'read', inputSchema: schema, isConcurrencySafe: () => { throw new Error('boom'); }, call: async () => ({ content: '' }) });
const tools = new Map<string, AnyTool>([reader, writer, throwing].map((t) => [t.name, t]));
const call = (id: string, name: string, input: unknown = { path: id }): ToolUseBlock => ({ type: 'tool_use', id, name, input });
const shape = (calls: ToolUseBlock[]) => partitionToolCalls(calls, tools).map((b) => `${b.parallel ? 'P' : 'S'}:${b.calls.map((c) => c.id).join(',')}`);

describe('partitionToolCalls', () => {
  it('groups consecutive concurrency-safe calls and isolates unsafe ones', () => {
    expect(shape([call('1', 'read'), call('2', 'read'), call('3', 'write'), call('4', 'read'), call('5', 'read'), call('6', 'read')])).toEqual([
      'P:1,2', 'S:3', 'P:4,5,6',
    ]);
  });
  it('treats a lone safe call as a plain serial call', () => {
    expect(shape([call('1', 'write'), call('2', 'read'), call('3', 'write')])).toEqual(['S:1', 'S:2', 'S:3']);
  });
  it('fails closed: unknown tools, invalid input and throwing predicates run alone', () => {
    expect(shape([call('1', 'read'), call('2', 'nope'), call('3', 'read'), call('4', 'read', { path: 5 }), call('5', 'weird'), call('6', 'weird')])).toEqual([
      'S:1', 'S:2', 'S:3', 'S:4', 'S:5', 'S:6',
    ]);
  });
  it('tools without a concurrency predicate are unsafe by default', () => {
    expect(shape([call('1', 'write'), call('2', 'write')])).toEqual(['S:1', 'S:2']);
  });
});
