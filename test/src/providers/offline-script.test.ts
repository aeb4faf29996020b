import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import { partitionToolCalls } from '../../../src/loop/partition.js';
import { DEFAULT_TOOL_CONCURRENCY } from '../../../src/loop/query.js';
import { planFor } from '../../../src/providers/offline-script.js';
import type { ModelProvider } from '../../../src/providers/provider.js';
import type { PermissionChecker } from '../../../src/permissions/types.js';

describe('offline model grammar', () => {
  it('reads one file', () => {
    expect(planFor('read a.txt')).toEqual({ kind: 'tools', steps: [[{ name: 'read_file', input: { path: 'a.txt' } }]] });
    expect(planFor('读取 a.txt')).toEqual({ kind: 'tools', steps: [[{ name: 'read_file', input: { path: 'a.txt' } }]] });
  });

  it('two parallel reads then a serial write, in English and Chinese', () => {
    const expected = {
      kind: 'tools',
      steps: [
        [{ name: 'read_file', input: { path: 'a.txt' } }, { name: 'read_file', input: { path: 'b.txt' } }],
        [{ name: 'write_file', input: { path: 'c.txt', content: 'hello\n' } }],
      ],
    };
    expect(planFor('read a.txt read b.txt then write hello to c.txt')).toEqual(expected);
    expect(planFor('读 a.txt 读 b.txt 然后往 c.txt 写入 hello')).toEqual(expected);
  });

  it('run takes everything after it verbatim', () => {
    const cmd = `echo "a && b" | tr a-z A-Z; ls 'x y' then echo z`;
    expect(planFor(`run ${cmd}`)).toEqual({ kind: 'tools', steps: [[{ name: 'bash', input: { command: cmd } }]] });
    expect(planFor('运行 ls -la')).toEqual({ kind: 'tools', steps: [[{ name: 'bash', input: { command: 'ls -la' } }]] });
  });

  it('edit, list, grep', () => {
    expect(planFor('edit src/a.ts: replace foo with bar')).toEqual({
      // Read first, in the same message: edit_file changes only a file read in this session.
      kind: 'tools', steps: [[{ name: 'read_file', input: { path: 'src/a.ts' } }, { name: 'edit_file', input: { path: 'src/a.ts', old_string: 'foo', new_string: 'bar' } }]],
    });
    expect(planFor('list src')).toEqual({ kind: 'tools', steps: [[{ name: 'list_dir', input: { path: 'src' } }]] });
    expect(planFor('grep TODO')).toEqual({ kind: 'tools', steps: [[{ name: 'grep', input: { pattern: 'TODO', output_mode: 'content' } }]] });
  });

  it('stream with and without a pace', () => {
    expect(planFor('stream 5000')).toEqual({ kind: 'stream', words: 5000 });
    expect(planFor('stream 5000 at 200/s')).toEqual({ kind: 'stream', words: 5000, rate: 200 });
  });

  it('schedule makes a cron_create call, durable when asked', () => {
    expect(planFor('schedule "*/5 * * * *" check the build')).toEqual({
      kind: 'tools', steps: [[{ name: 'cron_create', input: { cron: '*/5 * * * *', prompt: 'check the build', recurring: true, durable: false } }]],
    });
    const durable = planFor('schedule "0 9 * * 1" durable standup notes');
    expect(durable.kind === 'tools' && durable.steps[0]![0]!.input['durable']).toBe(true);
  });

  it('anything else is a chat reply', () => {
    expect(planFor('hello, who are you?').kind).toBe('chat');
    expect(planFor('read').kind).toBe('chat');
  });
});

describe('offline model grammar: subagents', () => {
  it('one general subagent, in English and Chinese', () => {
    expect(planFor('use a subagent to read a.txt and summarize')).toEqual({
      kind: 'tools', steps: [[{ name: 'agent', input: { type: 'general', task: 'read a.txt', description: 'read a.txt' } }]],
    });
    expect(planFor('用子代理去读 a.txt 并总结')).toEqual({
      kind: 'tools', steps: [[{ name: 'agent', input: { type: 'general', task: '读 a.txt', description: '读 a.txt' } }]],
    });
  });
  it('read-only exploration and two subagents at once', () => {
    expect(planFor('explore read-only: list src')).toMatchObject({ steps: [[{ name: 'agent', input: { type: 'explore', task: 'list src' } }]] });
    expect(planFor('用只读子代理探索：list src')).toMatchObject({ steps: [[{ name: 'agent', input: { type: 'explore', task: 'list src' } }]] });
    expect(planFor('use two subagents to read a.txt and b.txt')).toMatchObject({
      steps: [[{ name: 'agent', input: { type: 'explore', task: 'read a.txt' } }, { name: 'agent', input: { type: 'explore', task: 'read b.txt' } }]],
    });
  });
  it('N subagents with the same task, all in one step, in English and Chinese', () => {
    const call = (task: string) => ({ name: 'agent', input: { type: 'explore', task, description: task } });
    expect(planFor('use 8 subagents to stream 1000 at 200/s')).toEqual({ kind: 'tools', steps: [Array.from({ length: 8 }, () => call('stream 1000 at 200/s'))] });
    expect(planFor('use 1 subagent to read a.txt and b.txt')).toEqual({ kind: 'tools', steps: [[call('read a.txt and b.txt')]] });
    expect(planFor('use 1 subagents to list src')).toEqual({ kind: 'tools', steps: [[call('list src')]] });
    expect(planFor('用3个子代理读 a.txt')).toEqual({ kind: 'tools', steps: [Array.from({ length: 3 }, () => call('读 a.txt'))] });
    expect(planFor('用 2 个子代理去 stream 10')).toEqual({ kind: 'tools', steps: [Array.from({ length: 2 }, () => call('stream 10'))] });
    const sixteen = planFor('use 16 subagents to list');
    expect(sixteen.kind === 'tools' && sixteen.steps.length === 1 && sixteen.steps[0]!.length).toBe(16);
    // Out of range: not a subagent plan.
    expect(planFor('use 0 subagents to list src').kind).toBe('chat');
    expect(planFor('use 17 subagents to list src').kind).toBe('chat');
    // The task goes to every child as given, long ones with a shortened label.
    const long = 'read a-rather-long-file-name-for-a-label.txt';
    expect(planFor(`use 2 subagents to ${long}`)).toMatchObject({ steps: [[{ input: { task: long, description: `${long.slice(0, 37)}...` } }, { input: { task: long } }]] });
  });

  it('the N calls form one parallel batch (read-only agents are concurrency-safe; at most 8 run at once)', () => {
    const agent = createAgentTool({
      definitions: () => BUILTIN_AGENTS,
      provider: () => ({}) as ModelProvider,
      tools: () => [],
      permissions: () => ({}) as PermissionChecker,
      environment: () => '',
      cwd: '/',
    });
    const plan = planFor('use 8 subagents to stream 100');
    if (plan.kind !== 'tools') throw new Error('not a tool plan');
    const calls = plan.steps[0]!.map((c, i) => ({ type: 'tool_use' as const, id: `t${i}`, name: c.name, input: c.input }));
    const batches = partitionToolCalls(calls, new Map([[agent.name, agent]]));
    expect(batches.map((b) => [b.parallel, b.calls.length])).toEqual([[true, 8]]);
    expect(DEFAULT_TOOL_CONCURRENCY).toBe(8);
  });
});
