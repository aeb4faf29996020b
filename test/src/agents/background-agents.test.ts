// Background subagents (issue 38 item 2), through the runtime and a loopback Anthropic server: the
// agent tool's run_in_background returns at once, the lead's turn ends while the subagents work, and
// their reports come back as events and in the lead's next request (a turn cairn starts, the lead
// being idle).
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, EventOf } from '../../../src/events.js';
import { BACKGROUND_AGENTS_ENDED } from '../../../src/runtime/background-work.js';
import { initialState, reduce } from '../../../components/store/reduce.js';

import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { anthropicReply, type AnthropicRequestBody } from '../../helpers/anthropic-server.js';
import { waitFor } from '../../helpers/wait-for.js';

afterEach(closeAnthropicRuntimes);

const isSubagent = (body: AnthropicRequestBody): boolean => JSON.stringify(body.system ?? '').includes('subagent of cairn');
const text = (body: AnthropicRequestBody): string => JSON.stringify(body.messages);

describe('background agents', () => {
  it('two run at once after the lead\'s turn has ended; both reports arrive as events and in the lead\'s next requests', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { runtime, server } = await anthropicRuntime({
      runtime: { interactive: true },
      script: async (req) => {
        if (isSubagent(req.body)) {
          // Both subagents wait here until the test lets them finish: the lead's turn ends first.
          await released;
          const which = text(req.body).includes('task alpha') ? 'alpha' : 'beta';
          return anthropicReply([{ type: 'text', text: `report from ${which}` }]);
        }
        if (text(req.body).includes('start both') && req.body.messages.length === 1) {
          return anthropicReply([
            { type: 'tool_use', id: 'toolu_a', name: 'agent', input: { type: 'general', task: 'task alpha', description: 'alpha', run_in_background: true } },
            { type: 'tool_use', id: 'toolu_b', name: 'agent', input: { type: 'general', task: 'task beta', description: 'beta', run_in_background: true } },
          ]);
        }
        return anthropicReply([{ type: 'text', text: 'noted' }]);
      },
    });
    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));

    const terminal = await runtime.session.run('start both');
    expect(terminal.reason).toBe('completed');
    // The tool results said they started, with their ids; the turn is over and both still run.
    const results = events.filter((e): e is EventOf<'tool_result'> => e.type === 'tool_result');
    expect(results.map((r) => r.content)).toEqual([
      expect.stringMatching(/^Started the background agent agent_\d \(general: alpha\)/),
      expect.stringMatching(/^Started the background agent agent_\d \(general: beta\)/),
    ]);
    expect(runtime.session.busy).toBe(false);
    await waitFor(() => server.requests.filter((r) => isSubagent(r.body)).length === 2, { timeout: 20_000, message: 'both subagents asked the model' });
    expect(runtime.background.agents.list().map((a) => a.status)).toEqual(['running', 'running']);
    const leadRequestsBefore = server.requests.filter((r) => !isSubagent(r.body)).length;

    release();
    const ended = await waitFor(() => {
      const done = events.filter((e): e is EventOf<'background_agent'> => e.type === 'background_agent' && e.status !== 'running');
      if (done.length !== 2) throw new Error(`${done.length} of 2 ended`);
      return done;
    }, { timeout: 20_000 });
    expect(ended.map((e) => [e.status, e.result]).sort()).toEqual([['completed', 'report from alpha'], ['completed', 'report from beta']]);

    // The lead hears both: the first request after its turn is the one cairn starts for it; each report reaches the model once.
    const later = await waitFor(() => {
      const lead = server.requests.filter((r) => !isSubagent(r.body)).slice(leadRequestsBefore);
      const all = lead.map((r) => text(r.body)).join('\n');
      if (!all.includes('report from alpha') || !all.includes('report from beta') || runtime.session.busy) throw new Error('not yet');
      return lead;
    }, { timeout: 20_000, message: 'both reports in the lead\'s requests' });
    expect(text(later[0]!.body)).toContain(BACKGROUND_AGENTS_ENDED);
    for (const report of ['report from alpha', 'report from beta']) {
      const last = later.at(-1)!;
      expect(text(last.body).split(report).length - 1, `${report} once in the history`).toBe(1);
    }

    // What the user sees: a card per agent, closed with its report, and a notice of each end.
    const state = events.reduce((s, event) => reduce(s, { type: 'event', event, at: 0 }), initialState());
    const cards = state.items.filter((i) => i.kind === 'tool' && i.backgroundAgent === true);
    expect(cards.map((c) => (c.kind === 'tool' ? [c.status, c.result] : []))).toEqual([
      ['success', expect.stringMatching(/^report from (alpha|beta)$/)],
      ['success', expect.stringMatching(/^report from (alpha|beta)$/)],
    ]);
    const notices = state.items.flatMap((i) => (i.kind === 'notice' && i.code === 'background_agent' ? [i.message] : []));
    expect(notices).toEqual([
      expect.stringMatching(/^Background agent agent_\d \(general: (alpha|beta)\) finished/),
      expect.stringMatching(/^Background agent agent_\d \(general: (alpha|beta)\) finished/),
    ]);
  }, 60_000);

  it('a stopped agent says so to the lead; one that crashes is told as such and the session goes on', async () => {
    const { runtime } = await anthropicRuntime({
      runtime: { interactive: true },
      script: (req) => (isSubagent(req.body) ? { chunks: [], hold: true } : anthropicReply([{ type: 'text', text: 'ok' }])),
    });
    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    const agents = runtime.background.agents;
    const id = agents.start({ agentType: 'general', description: 'waits', task: 't', run: (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({ content: 'interrupted', isError: true }))) });
    const crashing = agents.start({ agentType: 'general', description: 'crashes', task: 't', run: () => Promise.reject(new Error('boom')) });
    await waitFor(() => events.some((e) => e.type === 'notice' && e.message === `The background agent ${crashing} crashed: boom`));
    expect(agents.stop(id)).toBe(true);
    const statuses = await waitFor(() => {
      const done = events.flatMap((e) => (e.type === 'background_agent' && e.status !== 'running' ? [`${e.id} ${e.status}`] : []));
      if (done.length !== 2) throw new Error(`${done.length} of 2 ended`);
      return done;
    });
    expect(statuses.sort()).toEqual([`${crashing} failed`, `${id} stopped`].sort());
    // The session goes on: a prompt still runs.
    await waitFor(() => !runtime.session.busy, { timeout: 20_000 });
    expect((await runtime.session.run('still there?')).reason).toBe('completed');
  }, 60_000);
});
