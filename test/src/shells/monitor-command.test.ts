// monitor {command} on real bash (issue 38 item 3, Claude Code's Monitor): the command starts as a
// background shell the shell manager lists; its lines reach the notes; its exit is "stream ended"
// with the exit code; its timeout, a flood, and stopping the watch stop the command too, while a
// watch of a shell bash started never stops that shell.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WatchLimits } from '../../../src/shells/shell-watches.js';
import { shellWatchNotice } from '../../../src/shells/watch-notice.js';
import { createMonitorTool, MONITOR_MAX_TIMEOUT_HEADLESS_MS } from '../../../src/tools/monitor.js';
import { shellWatchRig } from '../../helpers/shell-watch-rig.js';
import { waitFor } from '../../helpers/wait-for.js';

const rig = shellWatchRig('cairn-monitor-cmd-');
const watchEvents = () => rig.watchEvents();
const ctx = () => ({ cwd: rig.dir, signal: new AbortController().signal });

function setUp(limits: Partial<WatchLimits> = {}) {
  return createMonitorTool(rig.shells, rig.watch(limits));
}

/** Notes until one matches. */
async function notesUntil(match: RegExp, timeout = 10_000): Promise<string[]> {
  const notes: string[] = [];
  await waitFor(() => {
    notes.push(...rig.watches.drainNotes());
    return notes.some((n) => match.test(n));
  }, { timeout, message: `a note matching ${match}` });
  return notes;
}

describe('monitor {command}', () => {
  it('starts the command as a background shell, delivers its lines, and ends with "stream ended" and the exit code', async () => {
    const tool = setUp();
    await fs.writeFile(path.join(rig.dir, 'server.sh'), `while [ ! -e go ]; do sleep 0.02; done; echo 'listening on 3000'; echo 'ERROR: db down'; sleep 0.5; exit 3`);
    const result = await tool.call({ command: 'bash server.sh', description: 'dev server errors' }, ctx());
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatch(/^Started background shell bash_1 and monitoring it\. Each line it prints will reach you as it comes, and "stream ended" with its exit code when it exits\. It is stopped after 5 min \(timeout_ms\)/);
    // The shell manager runs it, as it runs bash's background commands (/bashes lists it).
    expect(rig.shells.list()).toMatchObject([{ id: 'bash_1', command: 'bash server.sh', status: 'running' }]);
    expect(rig.watches.list()).toMatchObject([{ shellId: 'bash_1', owned: true, timeoutMs: 300_000 }]);
    await fs.writeFile(path.join(rig.dir, 'go'), '');
    const notes = await notesUntil(/status="ended"/);
    const all = notes.join('\n');
    expect(all).toContain('New output from the command you are monitoring "dev server errors" (bash_1: bash server.sh) (2 lines):\nlistening on 3000\nERROR: db down');
    expect(notes.at(-1)).toContain('The command you were monitoring, bash_1 (bash server.sh), failed with exit code 3: stream ended, and the watch is over.');
    expect(watchEvents().at(-1)).toMatchObject({ status: 'ended', exit_code: 3 });
  });

  it('a pattern filters a started command as it filters a watched shell', async () => {
    const tool = setUp();
    const result = await tool.call({ command: `while [ ! -e go ]; do sleep 0.02; done; echo ok; echo 'FAIL: x'; echo ok`, pattern: 'FAIL' }, ctx());
    expect(result.content).toContain('Lines matching /FAIL/ will reach you');
    await fs.writeFile(path.join(rig.dir, 'go'), '');
    const all = (await notesUntil(/stream ended/)).join('\n');
    expect(all).toContain('FAIL: x');
    expect(all).not.toMatch(/^ok$/m);
  });

  it('expires after timeout_ms: the command is stopped and the model told so', async () => {
    const tool = setUp();
    await tool.call({ command: 'echo started; sleep 60', timeout_ms: 1_000 }, ctx());
    const notes = await notesUntil(/expired/);
    expect(notes.at(-1)).toMatch(/The monitor of bash_1 \(echo started; sleep 60\) expired: its timeout of 1 s expired, so the command was stopped\. If you still need it, start it again with a longer timeout_ms or persistent: true\./);
    expect(notes.join('\n')).toContain('started');
    await waitFor(() => rig.shells.list()[0]?.status === 'killed', { message: 'the command was killed' });
    const stopped = watchEvents().at(-1)!;
    expect(stopped).toMatchObject({ status: 'stopped', cause: 'timeout', reason: 'its timeout of 1 s expired; its command was stopped' });
    expect(shellWatchNotice(stopped)).toEqual({ text: 'Stopped watching bash_1: its timeout of 1 s expired; its command was stopped', warning: true });
  });

  it('persistent: true has no timeout', async () => {
    const tool = setUp();
    const result = await tool.call({ command: 'sleep 60', persistent: true, timeout_ms: 1_000 }, ctx());
    expect(result.content).toContain('It runs until stopped (persistent)');
    expect(rig.watches.list()[0]).not.toHaveProperty('expiresAt');
  });

  it('a flood (lines dropped for floodMs) stops the watch and its command, telling the model to filter', async () => {
    const tool = setUp({ maxLines: 5, floodMs: 1_000 });
    await tool.call({ command: 'while true; do echo noise; sleep 0.001; done', description: 'noise' }, ctx());
    const notes = await notesUntil(/status="stopped"/);
    expect(notes.at(-1)).toMatch(/Stopped monitoring bash_1 \(while true; do echo noise; sleep 0\.001; done\): it printed more lines than can be delivered for 1 s straight \(\d+ suppressed\), so the command was stopped\. Filter its output to the lines that matter \(pattern, or grep --line-buffered in the command\) and start the watch again\./);
    await waitFor(() => rig.shells.list()[0]?.status === 'killed', { message: 'the command was killed' });
    const stopped = watchEvents().at(-1)!;
    expect(stopped).toMatchObject({ status: 'stopped', cause: 'flood' });
    expect(shellWatchNotice(stopped).warning).toBe(true);
  });

  it('a flood on a shell bash started stops only the watch: the shell keeps running', async () => {
    const tool = setUp({ maxLines: 5, floodMs: 1_000 });
    const { id } = rig.shells.start('while true; do echo noise; sleep 0.001; done', rig.dir);
    await tool.call({ shell_id: id }, ctx());
    const notes = await notesUntil(/status="stopped"/);
    expect(notes.at(-1)).toMatch(/so the watch was stopped; the shell keeps running \(kill_shell stops it\)/);
    expect(rig.shells.list()[0]?.status).toBe('running');
  });

  it('bursts with a pause between them are no flood: the watch goes on', async () => {
    const tool = setUp({ maxLines: 5, floodMs: 600, floodGapMs: 300 });
    // Two bursts that each drop lines, further apart than floodMs but paused longer than floodGapMs.
    await tool.call({ command: `burst() { for i in $(seq 1 50); do echo $1 $i; done; }; burst one; sleep 1.5; burst two; sleep 1; echo after; sleep 30` }, ctx());
    await waitFor(() => watchEvents().some((e) => e.status === 'lines' && (e.lines ?? []).includes('after')), { timeout: 10_000, message: 'the line after the bursts' });
    expect(watchEvents().filter((e) => e.status === 'stopped')).toEqual([]);
    expect(watchEvents().filter((e) => e.status === 'lines').map((e) => e.dropped)).toEqual([45, 45, undefined]);
  });

  it('stopping the watch stops its command (the model\'s stop, and /bashes unwatch); a new pattern keeps the command owned', async () => {
    const tool = setUp();
    await tool.call({ command: 'sleep 60', timeout_ms: 60_000 }, ctx());
    const replaced = await tool.call({ shell_id: 'bash_1', pattern: 'x' }, ctx());
    expect(replaced.content).toMatch(/^Replaced the watch/);
    // The command stays running through the replacement, its deadline kept.
    expect(rig.shells.list()[0]?.status).toBe('running');
    expect(rig.watches.list()[0]).toMatchObject({ owned: true, timeoutMs: 60_000 });
    const stop = await tool.call({ shell_id: 'bash_1', stop: true }, ctx());
    expect(stop.content).toBe('Stopped watching bash_1 and stopped its command.');
    await waitFor(() => rig.shells.list()[0]?.status === 'killed', { message: 'the command was killed' });
    expect(watchEvents().at(-1)).toMatchObject({ status: 'stopped', reason: 'asked to stop watching; its command was stopped' });

    await tool.call({ command: 'sleep 60' }, ctx());
    expect(rig.watches.stop('bash_2', 'the user stopped the watch')).toBe(true);
    await waitFor(() => rig.shells.list()[1]?.status === 'killed', { message: 'the second command was killed' });
  });

  it('a command that ends by kill_shell ends its watch with its end; a shell bash started is never stopped by its watch ending', async () => {
    const tool = setUp();
    await tool.call({ command: 'sleep 60' }, ctx());
    await rig.shells.kill('bash_1');
    expect((await notesUntil(/status="ended"/)).at(-1)).toContain('was stopped with signal');
    const { id } = rig.shells.start('sleep 60', rig.dir);
    await tool.call({ shell_id: id }, ctx());
    expect((await tool.call({ shell_id: id, stop: true }, ctx())).content).toBe(`Stopped watching ${id}; the shell keeps running.`);
    expect(rig.shells.list().find((s) => s.id === id)?.status).toBe('running');
  });

  it('bad input is told, naming the field; nothing starts', async () => {
    const tool = setUp();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^Give command \(a command to start and watch\) or shell_id/],
      [{ command: 'sleep 1', shell_id: 'bash_1' }, /not both/],
      [{ command: 'sleep 1', stop: true }, /stop takes the shell_id/],
      [{ command: 'sleep 1', pattern: 'a(' }, /The pattern "a\(" is not a valid regular expression/],
    ];
    for (const [input, message] of cases) {
      const r = await tool.call(input, ctx());
      expect(r.isError, JSON.stringify(input)).toBe(true);
      expect(r.content).toMatch(message);
    }
    const { id } = rig.shells.start('sleep 30', rig.dir);
    expect((await tool.call({ shell_id: id, timeout_ms: 5_000 }, ctx())).content).toMatch(/timeout_ms and persistent apply to a command monitor starts/);
    expect(rig.shells.list()).toHaveLength(1);
    // The schema: Claude Code's bounds (1 s; 30 min interactive, 10 min with -p).
    expect(tool.inputSchema.safeParse({ command: 'x', timeout_ms: 999 }).success).toBe(false);
    expect(tool.inputSchema.safeParse({ command: 'x', timeout_ms: 1_800_000 }).success).toBe(true);
    expect(tool.inputSchema.safeParse({ command: 'x', timeout_ms: 1_800_001 }).success).toBe(false);
    const headless = createMonitorTool(rig.shells, rig.watches, { maxTimeoutMs: MONITOR_MAX_TIMEOUT_HEADLESS_MS });
    expect(headless.inputSchema.safeParse({ command: 'x', timeout_ms: 600_001 }).success).toBe(false);
    expect(headless.description).toContain('max 10 min');
  });

  it('how a call is shown and judged: a command card and world effects; a watch changes nothing', () => {
    const tool = setUp();
    expect(tool.describe?.({ command: 'npm run dev', description: 'Dev server errors' })).toEqual({ title: 'Dev server errors', subject: { kind: 'command', command: 'npm run dev' } });
    expect(tool.effects?.({ command: 'npm run dev' })).toBe('world');
    expect(tool.command?.({ command: 'npm run dev' })).toBe('npm run dev');
    expect(tool.effects?.({ shell_id: 'bash_1' })).toBe('none');
    expect(tool.command?.({ shell_id: 'bash_1' })).toBeUndefined();
    expect(tool.isConcurrencySafe?.({ command: 'npm run dev' })).toBe(false);
  });
});
