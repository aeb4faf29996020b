import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import type { AgentEvent, EventOf, PermissionMode } from '../../../src/events.js';
import type { Message } from '../../../src/messages.js';
import { toolResultText } from '../../../src/messages.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { PermissionAsk } from '../../../src/permissions/types.js';
import type { ModelProvider } from '../../../src/providers/provider.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { assistantText, scriptedProvider, toolCall, toolCalls } from '../../helpers/scripted-provider.js';
import { waitFor } from '../../helpers/wait-for.js';

// An ask has its own id. Tool_use ids are unique only within one agent's history: two read-only
// subagents running in parallel can both call their read `toolu_same`, and a model can reuse an id
// in a later turn. Each ask must get the answer given to it, and no answer can land on another ask.

let root: string;
let workspace: string;
let outside: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-ask-ids-')));
  workspace = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  await fs.mkdir(workspace);
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'a.txt'), 'alpha-secret\n');
  await fs.writeFile(path.join(outside, 'b.txt'), 'beta-secret\n');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const checker = (mode: PermissionMode) =>
  createPermissionChecker({ workspace, mode, rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(root, 'home', '.cairn'), homeDir: path.join(root, 'home') });

const textOf = (m: Message | undefined): string =>
  (m?.content ?? []).map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? toolResultText(b) : '')).join('');

/**
 * The parent starts two explore subagents in one message; each child reads a file outside the
 * workspace (which asks) under the same tool_use id, then reports what its read returned.
 */
const model: ModelProvider = {
  name: 'scripted',
  model: 'scripted-1',
  async *stream(req) {
    const task = textOf(req.messages[0]);
    const answered = req.messages.at(-1)?.content.some((b) => b.type === 'tool_result') === true;
    let message: Message;
    if (task.includes('look at both')) {
      message = answered
        ? assistantText('both done')
        : toolCalls(['p1', 'agent', { type: 'explore', task: 'read A', description: 'a' }], ['p2', 'agent', { type: 'explore', task: 'read B', description: 'b' }]);
    } else if (answered) {
      message = assistantText(`child saw: ${textOf(req.messages.at(-1))}`);
    } else {
      message = toolCall('toolu_same', 'read_file', { path: path.join(outside, task.includes('read A') ? 'a.txt' : 'b.txt') });
    }
    yield { type: 'message', message, stopReason: null };
  },
};

function parallelSession() {
  const parent = checker('default');
  const agent = createAgentTool({
    definitions: () => BUILTIN_AGENTS,
    provider: () => model,
    tools: () => [createReadFileTool()],
    permissions: (mode) => (mode ? checker(mode) : parent),
    environment: () => 'env',
    cwd: workspace,
  });
  const s = new AgentSession({ provider: model, tools: [agent, createReadFileTool()], permissions: parent, cwd: workspace, system: () => 's', interactive: true });
  const events: AgentEvent[] = [];
  s.subscribe((e) => events.push(e));
  return { s, events };
}

const unwrap = (e: AgentEvent): AgentEvent => (e.type === 'subagent' ? unwrap(e.event) : e);
const askFor = (asks: readonly PermissionAsk[], file: string): PermissionAsk => {
  const found = asks.find((r) => (r.input as { path: string }).path.endsWith(file));
  if (!found) throw new Error(`no ask for ${file} among ${asks.length}`);
  return found;
};
const resultOf = (events: readonly AgentEvent[], id: string): EventOf<'tool_result'> | undefined =>
  events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.id === id);

describe('asks have their own ids', () => {
  it('two parallel subagents asking under one tool_use id are each asked, and each gets its own answer', async () => {
    const { s, events } = parallelSession();
    const turn = s.run('look at both');
    await waitFor(() => s.pendingRequests().length === 2, { message: 'both subagents waiting for an answer' });
    const pending = s.pendingRequests();
    const [a, b] = [askFor(pending, 'a.txt'), askFor(pending, 'b.txt')];
    expect([a.id, b.id]).toEqual(['toolu_same', 'toolu_same']);
    expect(a.request_id).not.toBe(b.request_id);
    // The events the TUI and the page draw from carry the same ids.
    const asked = events.map(unwrap).filter((e): e is EventOf<'permission_request'> => e.type === 'permission_request');
    expect(asked.map((e) => e.request_id).sort()).toEqual([a.request_id, b.request_id].sort());

    // The shared tool_use id answers neither.
    expect(s.respond('toolu_same', { behavior: 'allow' })).toBe(false);
    expect(s.pendingRequests()).toHaveLength(2);
    // No to B first: A still waits; B's answer, given again, lands nowhere (least of all on A).
    expect(s.respond(b.request_id, { behavior: 'deny', message: 'not b' })).toBe(true);
    expect(s.respond(b.request_id, { behavior: 'allow' })).toBe(false);
    expect(s.pendingRequests().map((r) => r.request_id)).toEqual([a.request_id]);
    expect(s.respond(a.request_id, { behavior: 'allow' })).toBe(true);
    await turn;

    const [first, second] = [resultOf(events, 'p1'), resultOf(events, 'p2')];
    expect(first?.content).toContain('alpha-secret');
    expect(second?.content).toContain('not b');
    expect(second?.content).not.toContain('beta-secret');
  });

  it('a late answer to an earlier ask never approves a later ask that reuses its tool_use id', async () => {
    const s = new AgentSession({
      provider: scriptedProvider([
        toolCall('toolu_x', 'write_file', { path: 'one.txt', content: 'one' }),
        assistantText('wrote one'),
        toolCall('toolu_x', 'write_file', { path: 'two.txt', content: 'two' }),
        assistantText('tried two'),
      ]),
      tools: [createWriteFileTool()],
      permissions: checker('default'),
      cwd: workspace,
      system: () => 's',
      interactive: true,
    });
    let turn = s.run('write one');
    await waitFor(() => s.pendingRequests().length === 1, { message: 'the first ask' });
    const first = s.pendingRequests()[0]!;
    expect(s.respond(first.request_id, { behavior: 'allow' })).toBe(true);
    await turn;
    expect(await fs.readFile(path.join(workspace, 'one.txt'), 'utf8')).toBe('one');

    turn = s.run('write two');
    await waitFor(() => s.pendingRequests().length === 1, { message: 'the second ask' });
    const second = s.pendingRequests()[0]!;
    expect(second.id).toBe(first.id);
    // A second tab, or a key pressed twice, sends the first answer again: it answers nothing.
    expect(s.respond(first.request_id, { behavior: 'allow', remember: 'session', rules: ['write_file(./**)'] })).toBe(false);
    expect(s.pendingRequests().map((r) => r.request_id)).toEqual([second.request_id]);
    expect(s.respond(second.request_id, { behavior: 'deny' })).toBe(true);
    await turn;
    await expect(fs.access(path.join(workspace, 'two.txt'))).rejects.toThrow();
    expect(s.permissions.rules().allow).toEqual([]);
  });
});
