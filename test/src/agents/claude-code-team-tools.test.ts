// Agent files that name Claude Code's team, task and schedule tools get cairn's tools of the same
// job, and the notices name as missing only what cairn truly lacks. Checked through the runtime, a
// loopback Anthropic server asking for the subagent, and the tools the subagent's requests offer.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../../src/agents/agent-definition-loader.js';
import type { AgentEvent } from '../../../src/events.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { anthropicReply } from '../../helpers/anthropic-server.js';

const COORDINATOR = [
  '---',
  'name: coordinator',
  'description: Runs the team',
  'tools: Read, SendMessage, TaskCreate, TaskList, TaskGet, TaskUpdate, TeamCreate, TeamDelete, TaskOutput, TaskStop, CronCreate, Frobnicate',
  '---',
  'Coordinate.',
].join('\n');

afterEach(closeAnthropicRuntimes);

describe("Claude Code's team tools in an agent file", () => {
  it('map to send_message, task_*, team_spawn, bash_output, kill_shell, cron_create; TeamDelete is the one cairn lacks', () => {
    const parsed = parseAgentFile('/x/coordinator.md', COORDINATOR);
    expect('agent' in parsed && parsed.agent.tools).toEqual([
      'read_file', 'send_message', 'task_create', 'task_list', 'task_get', 'task_update', 'team_spawn', 'TeamDelete', 'bash_output', 'kill_shell', 'cron_create', 'Frobnicate',
    ]);
  });

  it('at start only TeamDelete (not in cairn yet) and Frobnicate (no tool) are named; run as a subagent, the team tools are named as the main session\'s', async () => {
    const { runtime, server, dir } = await anthropicRuntime({
      files: { '.claude/agents/coordinator.md': COORDINATOR },
      script: (req) => {
        const subagent = JSON.stringify(req.body.system ?? '').includes('Coordinate.');
        if (subagent || req.body.messages.length > 1) return anthropicReply([{ type: 'text', text: 'done' }]);
        return anthropicReply([{ type: 'tool_use', id: 'toolu_1', name: 'agent', input: { type: 'coordinator', task: 'plan it', description: 'plan' } }]);
      },
    });
    const file = path.join(dir, '.claude', 'agents', 'coordinator.md');
    const atStart = runtime.startupNotices.filter((n) => n.startsWith('Agent coordinator'));
    expect(atStart).toEqual([`Agent coordinator (${file}): TeamDelete is not in cairn yet (granted when it exists); Frobnicate is no tool cairn or Claude Code has`]);

    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    await runtime.session.run('start the coordinator');
    const told = events.flatMap((e) => (e.type === 'notice' && e.message.startsWith('Agent coordinator') ? [e.message] : []));
    expect(told).toEqual([
      `Agent coordinator (${file}): send_message, task_create, task_list, task_get, task_update, team_spawn, cron_create are the main session's, not a subagent's ` +
        '(a teammate started with team_spawn has send_message and the task tools); TeamDelete is not in cairn yet (granted when it exists); Frobnicate is no tool cairn or Claude Code has',
    ]);
    // What the subagent was offered: the tools it is granted and may have, with cairn's names.
    const childRequest = server.requests.find((r) => JSON.stringify(r.body.system ?? '').includes('Coordinate.'));
    expect((childRequest?.body.tools ?? []).map((t) => t.name).sort()).toEqual(['bash_output', 'kill_shell', 'read_file']);
  });
});
