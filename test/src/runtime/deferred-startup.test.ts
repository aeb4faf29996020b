import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import type { AgentEvent } from '../../../src/events.js';
import { textOf } from '../../../src/messages.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

const runtimes: Runtime[] = [];
afterEach(() => {
  for (const r of runtimes.splice(0)) r.close();
});

const HOOK = `node -e "process.stdout.write(JSON.stringify({hookSpecificOutput:{additionalContext:'started at the dock'}}))"`;

async function start(deferStartup: boolean): Promise<Runtime> {
  const ws = await tempWorkspace({ '.claude/agents/broken.md': 'no frontmatter at all' });
  const userHome = path.join(path.dirname(ws.dir), 'user');
  await fs.mkdir(userHome, { recursive: true });
  await fs.writeFile(path.join(ws.home, 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: HOOK }] }] } }));
  const runtime = await createRuntime({ cwd: ws.dir, env: { HOME: userHome, CAIRN_HOME: ws.home, CAIRN_OFFLINE_DELAY_MS: '0', PATH: process.env['PATH'] ?? '' }, interactive: true, persist: false, deferStartup });
  runtimes.push(runtime);
  return runtime;
}

describe('createRuntime with deferStartup (the TUI)', () => {
  it('returns before the tools, agents, skills and SessionStart hooks; the first turn waits for them and has them all', async () => {
    const eager = await start(false);
    const runtime = await start(true);
    expect(runtime.session.tools).toEqual([]);
    expect(runtime.agentTypes).toBeUndefined();
    // What the eager start told at once is told to the session once start-up has found it.
    // The hook's own outcome, never "SessionStart hooks failed: ..." (which the old /^SessionStart hook/ also matched).
    expect(eager.startupNotices).toEqual(expect.arrayContaining([expect.stringMatching(/^Skipped agent definition .*broken\.md/), expect.stringMatching(/^SessionStart hook injected: started at the dock/)]));
    expect(eager.startupNotices.filter((n) => /failed|before initialization/.test(n))).toEqual([]);
    expect(runtime.startupNotices.filter((n) => /agent definition|SessionStart/.test(n))).toEqual([]);

    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    const terminal = await runtime.session.run('hello');
    expect(terminal.reason).toBe('completed');
    expect(runtime.session.tools.map((t) => t.name)).toEqual(eager.session.tools.map((t) => t.name));
    expect(runtime.agentTypes?.problems.map((p) => path.basename(p.file))).toEqual(['broken.md']);
    expect((await runtime.skillsLoaded).skills.skills.map((s) => s.name)).toEqual(eager.skills.skills.skills.map((s) => s.name));
    const warnings = events.flatMap((e) => (e.type === 'notice' && e.level === 'warning' ? [e.message] : []));
    expect(warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^Skipped agent definition .*broken\.md/), expect.stringMatching(/^SessionStart hook injected: started at the dock/)]));
    expect(warnings.filter((n) => /failed|before initialization/.test(n))).toEqual([]);
    // The SessionStart hook's text reached the first prompt, as it does when start-up is eager.
    const first = terminal.messages[0];
    expect(first?.role).toBe('user');
    expect(first ? textOf(first) : '').toContain('started at the dock');
    const eagerTurn = await eager.session.run('hello');
    const eagerFirst = eagerTurn.messages[0];
    expect(eagerFirst ? textOf(eagerFirst) : '').toContain('started at the dock');
    // The prompt is told (and recorded) before start-up is waited for; start-up's notices, once, before the turn starts.
    expect(events.findIndex((e) => e.type === 'user_prompt')).toBe(0);
    expect(events.findIndex((e) => e.type === 'turn_start')).toBeGreaterThan(events.findIndex((e) => e.type === 'notice'));
  });

  it('finishStartup() sets it all up without a turn, once; the system prompt waits for it', async () => {
    const runtime = await start(true);
    const prompt = await runtime.systemPrompt();
    expect(runtime.session.tools.length).toBeGreaterThan(0);
    expect(prompt).toContain('read_file');
    await runtime.finishStartup();
    expect(runtime.session.tools.filter((t) => t.name === 'read_file')).toHaveLength(1);
  });

  it('the cron scheduler and MCP wait for start-up, and do not start at all if the runtime was closed first', async () => {
    const runtime = await start(true);
    const startCron = vi.spyOn(runtime.background, 'start');
    runtime.startBackground();
    expect(startCron).not.toHaveBeenCalled();
    await runtime.finishStartup();
    expect(startCron).toHaveBeenCalledTimes(1);

    const closedEarly = await start(true);
    const neverStarted = vi.spyOn(closedEarly.background, 'start');
    closedEarly.startBackground();
    closedEarly.close();
    await closedEarly.finishStartup();
    expect(neverStarted).not.toHaveBeenCalled();
  });
});
