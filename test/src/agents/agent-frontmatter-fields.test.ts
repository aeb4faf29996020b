import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../../src/agents/agent-definition-loader.js';
import type { AgentDefinition } from '../../../src/agents/agent-definition.js';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import type { AgentEvent, PermissionMode } from '../../../src/events.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { ModelProvider, ModelRequest } from '../../../src/providers/provider.js';
import { createBuiltinTools } from '../../../src/tools/builtin.js';
import { assistantText, toolCall } from '../../helpers/scripted-provider.js';

function definition(frontmatter: string, fromProject = false): AgentDefinition {
  const r = parseAgentFile('/defs/x.md', `---\n${frontmatter}\n---\nYou are x.`, { fromProject });
  if (!('agent' in r)) throw new Error(r.problem.message);
  return r.agent;
}

/** Runs one agent call against a provider that records each request and the model it was made for. */
async function run(def: AgentDefinition, opts: { sessionModel?: string; parentMode?: PermissionMode; replies?: number } = {}) {
  const cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-agentfm-')));
  const requests: { model: string; req: ModelRequest }[] = [];
  const modes: (PermissionMode | undefined)[] = [];
  const make = (model: string): ModelProvider => ({
    name: 'anthropic',
    model,
    async *stream(req) {
      requests.push({ model, req });
      // Keeps calling a tool until the turn limit stops it, when asked to.
      const message = requests.length <= (opts.replies ?? 0) ? toolCall(`t${requests.length}`, 'list_dir', {}) : assistantText('done');
      yield { type: 'message' as const, message, stopReason: null };
    },
  });
  const session = make(opts.sessionModel ?? 'claude-opus-5-5');
  const parent = createPermissionChecker({ workspace: cwd, mode: opts.parentMode ?? 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: cwd });
  const tool = createAgentTool({
    definitions: () => [def],
    provider: (model) => (model ? make(model) : session),
    tools: () => createBuiltinTools(),
    permissions: (mode) => {
      modes.push(mode);
      return mode ? createPermissionChecker({ workspace: cwd, mode, rules: { allow: [], ask: [], deny: [] }, cairnHome: cwd }) : parent;
    },
    environment: () => '',
    cwd,
  });
  const events: AgentEvent[] = [];
  const result = await tool.call({ type: def.name, task: 'go', description: 'go' }, { cwd, signal: new AbortController().signal, emit: (e) => events.push(e) });
  // The last mode asked for is the child's (undefined: the parent's checker itself).
  return { result, requests, childMode: modes.at(-1), events };
}

describe('agent definition fields as Claude Code reads them', () => {
  it('tools and disallowedTools: the agent gets exactly the listed tools minus the disallowed ones', async () => {
    const def = definition('name: x\ndescription: d\ntools: Read, Grep, Glob, Bash, Edit\ndisallowedTools: Bash, Edit');
    const { requests } = await run(def);
    expect(requests[0]?.req.tools.map((t) => t.name).sort()).toEqual(['glob', 'grep', 'read_file']);
    const future = await run(definition('name: x\ndescription: d\ntools: Read, WebSearch, mcp__github, pied-piper'));
    expect(future.requests[0]?.req.tools.map((t) => t.name)).toEqual(['read_file']);
    expect(future.events.filter((e) => e.type === 'notice').map((e) => (e as { message: string }).message)).toEqual([
      'Agent x (/defs/x.md): web_search, mcp__github are not in cairn yet (granted when they exist); pied-piper is no tool cairn or Claude Code has',
    ]);
    const all = definition('name: x\ndescription: d\ndisallowedTools: [Write, Bash]');
    const got = (await run(all)).requests[0]?.req.tools.map((t) => t.name) ?? [];
    expect(got).not.toContain('write_file');
    expect(got).not.toContain('bash');
    expect(got).toContain('edit_file');
  });

  it('model: sonnet runs on the provider’s sonnet model, inherit on the session’s, an unknown alias on the session’s with a notice', async () => {
    expect((await run(definition('name: x\ndescription: d\nmodel: sonnet'))).requests[0]?.model).toBe('claude-sonnet-5-5');
    expect((await run(definition('name: x\ndescription: d\nmodel: haiku'), { sessionModel: 'gpt-5.4' })).requests[0]?.model).toBe('gpt-5.4-mini');
    expect((await run(definition('name: x\ndescription: d\nmodel: inherit'))).requests[0]?.model).toBe('claude-opus-5-5');
    const odd = await run(definition('name: x\ndescription: d\nmodel: turbo'));
    expect(odd.requests[0]?.model).toBe('claude-opus-5-5');
    expect(odd.events).toContainEqual(expect.objectContaining({ type: 'notice', level: 'warning', message: expect.stringContaining('"turbo" is not a model alias') }));
  });

  it('maxTurns stops the agent after that many turns', async () => {
    const { result, requests } = await run(definition('name: x\ndescription: d\nmaxTurns: 2'), { replies: 10 });
    expect(requests).toHaveLength(2);
    expect(result.content).toMatch(/ran out of turns/);
  });

  it('permissionMode: plan runs the agent read-only; a parent in acceptEdits or bypassPermissions keeps its own mode', async () => {
    const def = definition('name: x\ndescription: d\npermissionMode: plan');
    expect(def.mode).toBe('plan');
    expect((await run(def)).childMode).toBe('plan');
    expect((await run(def, { parentMode: 'acceptEdits' })).childMode).toBeUndefined();
  });

  it("a project's definition cannot widen its agent's mode; the user's own may", () => {
    const project = definition('name: x\ndescription: d\npermissionMode: bypassPermissions', true);
    expect(project.mode).toBeUndefined();
    expect(project.warnings).toEqual([expect.stringContaining('permissionMode: bypassPermissions is not applied')]);
    expect(definition('name: x\ndescription: d\npermissionMode: acceptEdits').mode).toBe('acceptEdits');
    expect(definition('name: x\ndescription: d\npermissionMode: weird').warnings).toEqual([expect.stringContaining('"weird" is not a mode cairn has')]);
  });
});

describe('isolation (Claude Code\'s key)', () => {
  it('isolation: worktree is read from a file and from --agents; another value loads with a warning and runs in place', async () => {
    const { agentsFromFlag } = await import('../../../src/agents/flag-agents.js');
    expect(definition('name: x\ndescription: d\nisolation: worktree').isolation).toBe('worktree');
    const remote = definition('name: x\ndescription: d\nisolation: remote');
    expect(remote.isolation).toBeUndefined();
    expect(remote.warnings).toEqual(['isolation: "remote" is not one cairn has (worktree); the agent works in the session\'s folder']);
    expect(agentsFromFlag({ w: { description: 'd', prompt: 'p', isolation: 'worktree' } })[0]?.isolation).toBe('worktree');
    expect(() => agentsFromFlag({ w: { description: 'd', prompt: 'p', isolation: 'remote' } })).toThrow(/^"w": isolation: /);
  });
});
