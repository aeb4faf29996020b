import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentDefinition } from '../../../src/agents/agent-definition.js';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import { createAgentTool, type AgentToolDeps } from '../../../src/agents/agent-tool.js';
import type { AgentEvent } from '../../../src/events.js';
import type { AskPermission } from '../../../src/permissions/types.js';
import type { ModelProvider } from '../../../src/providers/provider.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import { createBuiltinTools } from '../../../src/tools/builtin.js';
import { defineTool, type AnyTool } from '../../../src/tools/tool.js';
import { realPermissions } from '../../helpers/real-permissions.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';
import { waitFor } from '../../helpers/wait-for.js';

async function workspace(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-agent-')));
  await fs.writeFile(path.join(dir, 'a.txt'), 'one\ntwo\n');
  return dir;
}

/** The parent session runs the real chain in default mode; an agent type of a fixed mode gets its own, as start-up wires it. */
async function deps(cwd: string, over: Partial<AgentToolDeps> & { provider: (model?: string) => ModelProvider }): Promise<AgentToolDeps> {
  return {
    definitions: () => BUILTIN_AGENTS,
    tools: () => createBuiltinTools(),
    permissions: (await realPermissions({ workspace: cwd })).forMode,
    environment: () => 'env',
    cwd,
    ...over,
  };
}

async function callAgent(tool: AnyTool, input: unknown, cwd: string, signal = new AbortController().signal, ask?: AskPermission) {
  const events: AgentEvent[] = [];
  const result = await tool.call(input, { cwd, signal, toolUseId: 'parent_1', emit: (e) => events.push(e), ...(ask ? { ask } : {}) });
  return { result, events };
}

describe('agent tool', () => {
  it('runs a child loop with its own history and returns its last text as the report, events wrapped under the call', async () => {
    const cwd = await workspace();
    const tool = createAgentTool(await deps(cwd, { provider: () => createOfflineProvider() }));
    const { result, events } = await callAgent(tool, { type: 'general', task: 'read a.txt', description: 'read a' }, cwd);
    expect(result.isError).toBeFalsy();
    expect(result.content).toMatch(/Read `a.txt`: 2 lines/);
    expect(events.every((e) => e.type === 'subagent' && e.parent_id === 'parent_1' && e.depth === 1 && e.agent_type === 'general')).toBe(true);
    const inner = events.map((e) => (e.type === 'subagent' ? e.event.type : e.type));
    expect(inner).toContain('tool_start');
    expect(inner.at(-1)).toBe('terminal');
  });

  it('keeps the agent tool in the pool down to depth 2 and removes it below', async () => {
    const cwd = await workspace();
    const seen: string[][] = [];
    const provider: ModelProvider = {
      name: 'rec', model: 'm',
      async *stream(req) {
        seen.push(req.tools.map((t) => t.name));
        const depthOfThisCall = seen.length; // 1: child of the parent, 2: grandchild
        const message = depthOfThisCall === 1
          ? toolCall('nested_1', 'agent', { type: 'general', task: 'go deeper', description: 'deeper' })
          : assistantText('bottom');
        yield { type: 'message' as const, message, stopReason: null };
        if (depthOfThisCall === 1) return;
      },
    };
    let calls = 0;
    const wrapped: ModelProvider = { ...provider, stream: (req) => { calls++; return calls === 3 ? scriptedProvider([assistantText('done')]).stream(req) : provider.stream(req); } };
    const tool = createAgentTool(await deps(cwd, { provider: () => wrapped }));
    const { result, events } = await callAgent(tool, { type: 'general', task: 'start', description: 'start' }, cwd);
    expect(result.isError).toBeFalsy();
    expect(seen[0]).toContain('agent'); // depth 1 may start subagents
    expect(seen[1]).not.toContain('agent'); // depth 2 may not
    const nested = events.find((e) => e.type === 'subagent' && e.event.type === 'subagent');
    expect(nested).toMatchObject({ depth: 1, event: { type: 'subagent', depth: 2, parent_id: 'nested_1' } });
  });

  it('explore cannot write: with the tool filter alone the write tool does not exist', async () => {
    const cwd = await workspace();
    const filterOnly: AgentDefinition = { name: 'reader', description: '', tools: ['read_file'], prompt: 'p', source: 'test' };
    const provider = scriptedProvider([toolCall('w1', 'write_file', { path: 'x.txt', content: 'x' }), assistantText('tried')]);
    const tool = createAgentTool(await deps(cwd, { provider: () => provider, definitions: () => [filterOnly] }));
    const { events } = await callAgent(tool, { type: 'reader', task: 'write x', description: 'w' }, cwd);
    const result = events.map((e) => (e.type === 'subagent' ? e.event : e)).find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ is_error: true, content: expect.stringMatching(/Unknown tool "write_file"/) });
    await expect(fs.access(path.join(cwd, 'x.txt'))).rejects.toThrow();
  });

  it('explore cannot write: with plan mode alone the write is denied even though the tool exists', async () => {
    const cwd = await workspace();
    const modeOnly: AgentDefinition = { name: 'planner', description: '', mode: 'plan', prompt: 'p', source: 'test' };
    const provider = scriptedProvider([toolCall('w1', 'write_file', { path: 'x.txt', content: 'x' }), assistantText('tried')]);
    const tool = createAgentTool(await deps(cwd, { provider: () => provider, definitions: () => [modeOnly] }));
    // A user who would say yes: in plan mode nobody is asked.
    const asked: string[] = [];
    const yes: AskPermission = async (req) => (asked.push(req.name), { behavior: 'allow' });
    const { events } = await callAgent(tool, { type: 'planner', task: 'write x', description: 'w' }, cwd, undefined, yes);
    const inner = events.map((e) => (e.type === 'subagent' ? e.event : e));
    expect(inner.find((e) => e.type === 'permission_denied')).toMatchObject({ reason: expect.stringMatching(/^plan mode: write_file would make changes/) });
    expect(asked).toEqual([]);
    await expect(fs.access(path.join(cwd, 'x.txt'))).rejects.toThrow();
    // Both guards together: the built-in explore type.
    expect(BUILTIN_AGENTS.find((a) => a.name === 'explore')).toMatchObject({ mode: 'plan', tools: ['read_file', 'list_dir', 'glob', 'grep'] });
  });

  it('asks inside a subagent go to the parent channel, labelled with the subagent name', async () => {
    const cwd = await workspace();
    const provider = scriptedProvider([toolCall('w1', 'write_file', { path: 'x.txt', content: 'x' }), assistantText('ok')]);
    // In default mode a write with no rule for it is asked.
    const tool = createAgentTool(await deps(cwd, { provider: () => provider }));
    const asked: string[] = [];
    const events: AgentEvent[] = [];
    await tool.call({ type: 'general', task: 'write', description: 'w' }, {
      cwd, signal: new AbortController().signal, toolUseId: 'p', emit: (e) => events.push(e),
      ask: async (req) => { asked.push(`${req.agent ?? ''}: ${req.reason}`); return { behavior: 'allow' }; },
    });
    expect(asked).toEqual(['general subagent: needs your approval: no rule allows write_file "x.txt"']);
    expect(await fs.readFile(path.join(cwd, 'x.txt'), 'utf8')).toBe('x');
  });

  it('an abort of the parent reaches the child and its running tool', async () => {
    const cwd = await workspace();
    const started: string[] = [];
    const slow = defineTool({
      name: 'read_file', description: '', kind: 'read', inputSchema: z.object({ path: z.string() }), effects: () => 'none' as const,
      async call(input, ctx) {
        started.push(input.path);
        await new Promise((r) => ctx.signal.addEventListener('abort', r));
        return { content: 'stopped', isError: true };
      },
    });
    const provider = scriptedProvider([toolCall('r1', 'read_file', { path: 'a.txt' }), assistantText('never')]);
    const tool = createAgentTool(await deps(cwd, { provider: () => provider, tools: () => [slow] }));
    const controller = new AbortController();
    const run = callAgent(tool, { type: 'general', task: 'read', description: 'r' }, cwd, controller.signal);
    await waitFor(() => started.length > 0, { message: 'the subagent to start its tool' });
    controller.abort();
    const { result, events } = await run;
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/interrupted/);
    const end = events.map((e) => (e.type === 'subagent' ? e.event : e)).find((e) => e.type === 'terminal');
    expect(end).toMatchObject({ reason: 'aborted' });
  });

  it('unknown types are an error listing the available ones; read-only types run in parallel', async () => {
    const cwd = await workspace();
    const tool = createAgentTool(await deps(cwd, { provider: () => createOfflineProvider() }));
    const { result } = await callAgent(tool, { type: 'wizard', task: 't', description: 'd' }, cwd);
    expect(result).toMatchObject({ isError: true, content: expect.stringMatching(/Unknown agent type "wizard". Available: explore, general/) });
    expect(tool.isConcurrencySafe?.({ type: 'explore', task: 't', description: 'd' })).toBe(true);
    expect(tool.isConcurrencySafe?.({ type: 'general', task: 't', description: 'd' })).toBe(false);
  });
});
