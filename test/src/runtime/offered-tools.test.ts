import { afterEach, describe, expect, it } from 'vitest';
import { closeRecordedSessions, recordedSession } from '../../helpers/recorded-session.js';
import { waitFor } from '../../helpers/wait-for.js';

afterEach(closeRecordedSessions);

const TEAM_TOOLS = ['task_create', 'task_list', 'task_get', 'task_update', 'send_message', 'read_inbox'];
const CRON_TOOLS = ['cron_create', 'cron_list', 'cron_delete'];

describe('the tools a request offers', () => {
  it('by default (no team, no cron, default mode): none the session cannot use, fewer than the 31 it has', async () => {
    const { runtime, requests, names } = await recordedSession();
    await runtime.session.run('hello');
    const offered = names(requests[0]);
    expect(runtime.session.tools).toHaveLength(31);
    expect(offered.length).toBeLessThan(31);
    // ask_user_question: no one can answer in a non-interactive session.
    for (const name of ['exit_plan_mode', 'ask_user_question', ...CRON_TOOLS, ...TEAM_TOOLS]) expect(offered, name).not.toContain(name);
    expect(offered).toEqual(expect.arrayContaining(['read_file', 'write_file', 'edit_file', 'bash', 'agent', 'todo_write', 'team_spawn']));
    // The environment section names the same tools.
    expect(requests[0]?.system).toContain(`- Tools: ${offered.join(', ')}`);
  });

  it('follows a mode change within one prompt: plan mode entered mid-prompt offers exit_plan_mode in the next request', async () => {
    const { runtime, requests, names } = await recordedSession((request, rt) => {
      if (request.messages.length === 1) rt.session.setMode('plan');
    });
    await runtime.session.run('read a.txt');
    expect(requests).toHaveLength(2);
    expect(names(requests[0])).not.toContain('exit_plan_mode');
    expect(names(requests[1])).toContain('exit_plan_mode');
    runtime.session.setMode('default');
    await runtime.session.run('hello');
    expect(names(requests[2])).not.toContain('exit_plan_mode');
  });

  it('offers the team tools once a teammate is started, and the cron tools once the scheduler runs', async () => {
    const { runtime, requests, names } = await recordedSession();
    await runtime.session.run('hello');
    runtime.team.spawn('helper', 'general', 'read a.txt');
    await waitFor(() => runtime.team.list()[0]?.status === 'idle', { message: 'the teammate to finish' });
    await runtime.session.run('hello');
    expect(names(requests.at(-1))).toEqual(expect.arrayContaining(TEAM_TOOLS));
    expect(names(requests.at(-1))).not.toContain('cron_create');
    runtime.startBackground();
    await runtime.session.run('hello');
    expect(names(requests.at(-1))).toEqual(expect.arrayContaining(CRON_TOOLS));
  });

  it('keeps the tool list byte for byte between requests when nothing changed (the prompt cache holds)', async () => {
    const { runtime, requests } = await recordedSession();
    await runtime.session.run('read a.txt');
    await runtime.session.run('hello');
    expect(requests).toHaveLength(3);
    const [a, b, c] = requests.map((r) => JSON.stringify(r.tools));
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('a call to a tool not offered is refused with the reason', async () => {
    const { runtime, events } = await recordedSession();
    await runtime.session.run('propose plan: change everything');
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ name: 'exit_plan_mode', is_error: true, content: 'exit_plan_mode is not available now: the session is not in plan mode.' });
  });
});
