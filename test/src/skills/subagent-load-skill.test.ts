// load_skill inside a subagent, through the real runtime on the offline model (headless: what would be asked is denied).
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import type { AgentEvent } from '../../../src/events.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

const runtimes: Runtime[] = [];
afterEach(() => {
  for (const r of runtimes.splice(0)) r.close();
});

async function start(allowedTools: string | undefined): Promise<{ rt: Runtime; ws: string }> {
  const ws = await tempWorkspace();
  const dir = path.join(ws.home, 'skills', 'deploy');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'SKILL.md'), `---\nname: deploy\ndescription: Deploys\n${allowedTools ? `allowed-tools: ${allowedTools}\n` : ''}---\nTouch the marker.\n`);
  const userHome = path.join(path.dirname(ws.dir), 'user');
  await fs.mkdir(userHome, { recursive: true });
  // The sandbox off: these tests are about what the skill's allowed-tools grant, which the sandbox (on by
  // default) would make moot for a command that stays in the workspace.
  const rt = await createRuntime({ cwd: ws.dir, env: { HOME: userHome, CAIRN_HOME: ws.home }, interactive: false, persist: false, sandbox: false });
  runtimes.push(rt);
  return { rt, ws: ws.dir };
}

const inner = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'subagent' ? [e.event] : []));
const exists = (file: string) => fs.access(file).then(() => true, () => false);

describe('load_skill in a subagent', () => {
  it("a subagent can load a skill, and the skill's allowed-tools hold for it within the session's turn", async () => {
    const { rt, ws } = await start('Bash(touch *)');
    const events: AgentEvent[] = [];
    rt.session.subscribe((e) => events.push(e));
    await rt.session.run('use a subagent to use the deploy skill then run touch deployed.txt');
    const results = inner(events).filter((e) => e.type === 'tool_result');
    expect(results.map((e) => (e.type === 'tool_result' ? e.content : '')).join('\n')).toMatch(/Skill "deploy" loaded[\s\S]*Allowed without asking for the rest of this turn: Bash\(touch \*\)/);
    expect(await exists(path.join(ws, 'deployed.txt'))).toBe(true);
  });

  it('without allowed-tools the same command is still asked (denied headless)', async () => {
    const { rt, ws } = await start(undefined);
    await rt.session.run('use a subagent to use the deploy skill then run touch deployed.txt');
    expect(await exists(path.join(ws, 'deployed.txt'))).toBe(false);
  });

  it('the grant ends with the turn: the next turn asks again', async () => {
    const { rt, ws } = await start('Bash(touch *)');
    await rt.session.run('use a subagent to use the deploy skill then run touch deployed.txt');
    await rt.session.run('run touch again.txt');
    expect(await exists(path.join(ws, 'again.txt'))).toBe(false);
  });

  it('a subagent started outside a turn of the session (a scheduled run) loads the skill but gets no grants', async () => {
    const { rt, ws } = await start('Bash(touch *)');
    const agent = rt.session.tools.find((t) => t.name === 'agent');
    const events: AgentEvent[] = [];
    await agent?.call(
      { type: 'general', task: 'use the deploy skill then run touch outside.txt', description: 'deploy' },
      { cwd: ws, signal: new AbortController().signal, emit: (e) => events.push(e) },
    );
    const text = inner(events).map((e) => (e.type === 'tool_result' ? e.content : '')).join('\n');
    expect(text).toMatch(/Skill "deploy" loaded[\s\S]*not granted: a subagent outside a turn of the session/);
    expect(await exists(path.join(ws, 'outside.txt'))).toBe(false);
  });
});
