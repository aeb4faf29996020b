import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import type { AgentEvent } from '../../../src/events.js';
import { textOf, type Message } from '../../../src/messages.js';
import type { ModelProvider, ModelRequest } from '../../../src/providers/provider.js';
import { createMessageBus } from '../../../src/team/message-bus.js';
import { createTeam, LEAD } from '../../../src/team/team.js';
import { createMessagingTools } from '../../../src/tools/team-tools.js';
import { realPermissions } from '../../helpers/real-permissions.js';
import { waitFor } from '../../helpers/wait-for.js';

// A teammate model: greets the lead when it starts, answers each message with an echo.
function teammateModel(): ModelProvider {
  let n = 0;
  return {
    name: 'scripted', model: 'm',
    async *stream(req: ModelRequest) {
      const last = req.messages.at(-1)!;
      const answered = last.content.some((b) => b.type === 'tool_result');
      let message: Message;
      if (answered) message = { role: 'assistant', content: [{ type: 'text', text: 'sent' }] };
      else {
        const prompt = textOf(last);
        const text = prompt.startsWith('Message from') ? `echo: ${prompt.replace(/^Message from \w+: /, '')}` : 'hello lead, ready';
        message = { role: 'assistant', content: [{ type: 'tool_use', id: `t${n++}`, name: 'send_message', input: { to: LEAD, text } }] };
      }
      yield { type: 'message' as const, message, stopReason: null };
    },
  };
}

describe('teammates', () => {
  it('a round trip through the bus: spawn, message the lead, answer, shutdown acknowledged', async () => {
    const cwd = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-team-')));
    const bus = createMessageBus(cwd);
    const events: AgentEvent[] = [];
    const team = createTeam({
      bus,
      definitions: () => BUILTIN_AGENTS,
      provider: teammateModel,
      tools: (name) => createMessagingTools(bus, name),
      // The lead's real chain in default mode, as start-up wires teammates.
      permissions: (await realPermissions({ workspace: cwd })).forMode,
      emit: (e) => events.push(e),
      cwd,
      environment: () => '',
    });
    team.spawn('scout', 'general', 'Say hello to the lead.');
    await waitFor(() => events.some((e) => e.type === 'team' && e.kind === 'message' && e.text === 'hello lead, ready'));
    await waitFor(() => team.list()[0]!.status === 'idle');
    expect(await bus.read(LEAD)).toMatchObject([{ from: 'scout', text: 'hello lead, ready' }]);

    await bus.send(LEAD, 'scout', 'how many files?');
    await waitFor(() => events.some((e) => e.type === 'team' && e.kind === 'message' && e.text === 'echo: how many files?'));

    await team.stop('scout');
    await team.waitStopped('scout');
    expect(team.list()[0]!.status).toBe('stopped');
    const mail = await bus.read(LEAD);
    expect(mail.at(-1)).toMatchObject({ from: 'scout', kind: 'shutdown_ack' });
    // Inboxes persist as JSONL under .cairn/team/.
    const inbox = await fs.readFile(path.join(cwd, '.cairn', 'team', 'scout.jsonl'), 'utf8');
    expect(inbox.trim().split('\n').map((l) => JSON.parse(l).kind)).toEqual(['message', 'shutdown_request']);
    const statuses = events.filter((e) => e.type === 'team' && e.kind === 'status').map((e) => (e as { status: string }).status);
    expect(statuses).toEqual(expect.arrayContaining(['idle', 'working', 'stopped']));
  });

  it('refuses bad names and unknown types with a clear message', async () => {
    const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-team-'));
    const team = createTeam({ bus: createMessageBus(cwd), definitions: () => BUILTIN_AGENTS, provider: teammateModel, tools: () => [], permissions: (await realPermissions({ workspace: cwd })).forMode, emit: () => {}, cwd, environment: () => '' });
    expect(() => team.spawn('lead', 'general', 'x')).toThrow(/invalid teammate name/);
    expect(() => team.spawn('a', 'wizard', 'x')).toThrow(/unknown agent type "wizard"; available: explore, general/);
  });
});
