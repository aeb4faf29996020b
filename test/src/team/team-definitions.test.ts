// A teammate runs with its definition's tools, disallowedTools and model, as a subagent does;
// what its model is sent (tool list, model id) is recorded at the provider.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../../src/agents/agent-definition.js';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import type { AgentEvent } from '../../../src/events.js';
import type { ModelProvider, ModelRequest } from '../../../src/providers/provider.js';
import { createMessageBus } from '../../../src/team/message-bus.js';
import { createTeam } from '../../../src/team/team.js';
import { createBuiltinTools } from '../../../src/tools/builtin.js';
import { createMessagingTools } from '../../../src/tools/team-tools.js';
import { realPermissions } from '../../helpers/real-permissions.js';
import { waitFor } from '../../helpers/wait-for.js';

interface Seen { provider: string; model: string; tools: string[] }

const defs: AgentDefinition[] = [
  ...BUILTIN_AGENTS,
  { name: 'reader', description: 'reads', tools: ['read_file', 'grep', 'glob'], disallowedTools: ['grep'], model: 'haiku', prompt: 'Read.', source: '/x/reader.md' },
  { name: 'pinned', description: 'a full model id', model: 'claude-opus-4-1-20250805', disallowedTools: ['bash'], prompt: 'P.', source: '/x/pinned.md' },
  { name: 'oddly', description: 'an alias the provider has no tier for', model: 'haikoo', prompt: 'O.', source: '/x/oddly.md' },
];

async function spawn(type: string) {
  const cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-team-defs-')));
  const bus = createMessageBus(cwd);
  const seen: Seen[] = [];
  const events: AgentEvent[] = [];
  const recording = (model: string): ModelProvider => ({
    name: 'anthropic',
    model,
    async *stream(req: ModelRequest) {
      seen.push({ provider: model, model: req.model, tools: req.tools.map((t) => t.name).sort() });
      yield { type: 'message' as const, message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, stopReason: 'end_turn' };
    },
  });
  const team = createTeam({
    bus,
    definitions: () => defs,
    provider: (model) => recording(model ?? 'claude-sonnet-5-5'),
    tools: (name) => [...createBuiltinTools(), ...createMessagingTools(bus, name)],
    // The lead's real chain in default mode, as start-up wires teammates.
    permissions: (await realPermissions({ workspace: cwd })).forMode,
    emit: (e) => events.push(e),
    cwd,
    environment: () => '',
  });
  team.spawn('mate', type, 'Work.');
  await waitFor(() => seen.length > 0 && team.list()[0]?.status === 'idle');
  team.abortAll();
  return { seen: seen[0], events };
}

describe('a teammate follows its definition', () => {
  it('tools and disallowedTools narrow its tools; the team channel stays; an alias model becomes that tier', async () => {
    const { seen } = await spawn('reader');
    expect(seen?.tools).toEqual(['glob', 'read_file', 'read_inbox', 'send_message']);
    expect(seen?.model).toBe('claude-haiku-5-5');
  });

  it('a full model id is used as written; disallowedTools alone takes those away from every tool', async () => {
    const { seen } = await spawn('pinned');
    expect(seen?.model).toBe('claude-opus-4-1-20250805');
    expect(seen?.tools).toContain('write_file');
    expect(seen?.tools).not.toContain('bash');
  });

  it('no tools and no model: every tool and the lead\'s model', async () => {
    const { seen } = await spawn('general');
    expect(seen?.model).toBe('claude-sonnet-5-5');
    expect(seen?.tools).toEqual(expect.arrayContaining(['bash', 'write_file', 'read_file', 'send_message']));
  });

  it('an alias cairn does not know: the lead\'s model, and the user is told', async () => {
    const { seen, events } = await spawn('oddly');
    expect(seen?.model).toBe('claude-sonnet-5-5');
    expect(events).toContainEqual(expect.objectContaining({ type: 'notice', level: 'warning', message: expect.stringMatching(/Teammate mate \(oddly\): model "haikoo"/) }));
  });
});
