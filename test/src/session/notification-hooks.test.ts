import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import type { HookRunner } from '../../../src/hooks/hook-types.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import { realPermissions } from '../../helpers/real-permissions.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';
import { waitFor } from '../../helpers/wait-for.js';

// Claude Code's Notification event, on real hook scripts: fired when cairn asks for permission
// (matcher permission_prompt) and when a turn ends with nothing queued (idle_prompt).

let dir: string;
beforeEach(async () => {
  dir = await hookWorkspace();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const readJson = async (file: string): Promise<Record<string, unknown>> => JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
const exists = (file: string) => fs.access(file).then(() => true, () => false);
// The hook's shell creates the file (`cat > f`) before it writes the JSON: wait for all of it.
const written = (file: string) => readJson(file).then(() => true, () => false);

// The real chain in default mode: a write with no rule for it is asked about.
async function session(hooks: HookRunner, replies: Parameters<typeof scriptedProvider>[0], interactive = true) {
  const s = new AgentSession({
    provider: scriptedProvider(replies),
    tools: [createWriteFileTool()],
    permissions: (await realPermissions({ workspace: dir })).permissions,
    cwd: dir,
    system: () => 's',
    interactive,
    hooks,
  });
  const events: AgentEvent[] = [];
  s.subscribe((e) => events.push(e));
  return { s, events };
}

/** A hook that saves its stdin as <name>.json (appending a line per run to <name>.log). */
const recorder = (name: string) => script(dir, `${name}.sh`, `tee "${dir}/${name}.json" >/dev/null\necho run >> "${dir}/${name}.log"`);

describe('Notification hooks', () => {
  it('permission_prompt runs while the approval waits, with the tool named; idle_prompt runs once the turn ends', async () => {
    const perm = await recorder('perm');
    const idle = await recorder('idle');
    const { runner } = claudeHooks(dir, { Notification: [{ matcher: 'permission_prompt', hooks: [command(perm)] }, { matcher: 'idle_prompt', hooks: [command(idle)] }] });
    const { s } = await session(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('done')]);
    const turn = s.run('write a.txt');

    await waitFor(() => s.pendingRequests().length === 1, { message: 'the approval to be asked' });
    expect(s.pendingRequests()[0]).toMatchObject({ name: 'write_file', reason: 'needs your approval: no rule allows write_file "a.txt"' });
    await waitFor(() => written(path.join(dir, 'perm.json')), { message: 'the permission_prompt hook to run' });
    expect(await readJson(path.join(dir, 'perm.json'))).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: 'cairn needs your permission to use write_file',
      cwd: dir,
    });
    // Only the permission hook so far: the turn is still waiting on the user.
    expect(await exists(path.join(dir, 'idle.json'))).toBe(false);

    s.respond(s.pendingRequests()[0]?.request_id ?? '', { behavior: 'allow' });
    await turn;
    await waitFor(() => written(path.join(dir, 'idle.json')), { message: 'the idle_prompt hook to run' });
    expect(await readJson(path.join(dir, 'idle.json'))).toMatchObject({ hook_event_name: 'Notification', notification_type: 'idle_prompt', message: 'cairn is waiting for your input' });
    expect((await fs.readFile(path.join(dir, 'perm.log'), 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('x');
  });

  it('idle_prompt waits for the queue: two prompts in a row notify once, after the second', async () => {
    const idle = await recorder('idle');
    const { runner } = claudeHooks(dir, { Notification: [{ matcher: 'idle_prompt', hooks: [command(idle)] }] });
    // Every Notification run the session starts, counted as it starts.
    const runs: Promise<unknown>[] = [];
    const counting: HookRunner = { ...runner, run: (input, signal) => {
      const run = runner.run(input, signal);
      if (input.event === 'Notification') runs.push(run);
      return run;
    } };
    const { s, events } = await session(counting, [assistantText('one'), assistantText('two')]);
    const first = s.run('one');
    s.submit('two');
    await first;
    await waitFor(() => !s.busy && events.filter((e) => e.type === 'terminal').length === 2, { message: 'both turns to end' });
    await waitFor(() => runs.length > 0, { message: 'the idle_prompt hook to start' });
    await Promise.all(runs);
    expect(runs).toHaveLength(1);
    expect((await fs.readFile(path.join(dir, 'idle.log'), 'utf8')).trim().split('\n')).toEqual(['run']);
  });

  it('headless (no one to notify): no idle_prompt; a failing notifier is shown, naming its file, and the turn is not held up', async () => {
    const idle = await recorder('idle');
    const headless = claudeHooks(dir, { Notification: [{ hooks: [command(idle)] }] });
    await (await session(headless.runner, [assistantText('done')], false)).s.run('hi');
    expect(await exists(path.join(dir, 'idle.json'))).toBe(false);

    const broken = await script(dir, 'broken.sh', 'echo "notify-send: not found" >&2\nexit 127');
    const { runner } = claudeHooks(dir, { Notification: [{ matcher: 'idle_prompt', hooks: [command(broken)] }] });
    const { s, events } = await session(runner, [assistantText('done')]);
    await s.run('hi');
    await waitFor(() => events.some((e) => e.type === 'hook'), { message: 'the failed hook to be shown' });
    expect(events.find((e) => e.type === 'hook')).toMatchObject({
      hook_event: 'Notification',
      outcome: 'error',
      text: expect.stringContaining('exited with 127: notify-send: not found'),
      source: path.join(dir, '.claude', 'settings.json'),
    });
  });
});
