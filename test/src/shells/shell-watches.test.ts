// Watching a background shell's output (issue 38 item 3) on real bash: what matches reaches the
// notes, what does not never does; a noisy command is rate-limited with the drops counted; the end
// comes once with the exit code; a runaway pattern stops the watch, not the engine.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WatchLimits } from '../../../src/shells/shell-watches.js';
import { createMonitorTool } from '../../../src/tools/monitor.js';
import { claudeToolName } from '../../../src/hooks/claude-tool-names.js';
import { canonicalToolName } from '../../../src/permissions/rules/parse.js';
import { shellWatchRig } from '../../helpers/shell-watch-rig.js';
import { waitFor } from '../../helpers/wait-for.js';

const rig = shellWatchRig('cairn-watch-');
const watchEvents = () => rig.watchEvents();

function setUp(limits: Partial<WatchLimits> = {}): void {
  rig.watch(limits);
}

describe('shell watches', () => {
  it('delivers only the lines that match, then one last note with the exit code', async () => {
    setUp();
    // Waits for a go file, so the watch is in place before anything is printed.
    await fs.writeFile(path.join(rig.dir, 'server.sh'), `while [ ! -e go ]; do sleep 0.02; done; echo 'compiled ok'; echo 'ERROR: db down' >&2; echo 'GET / 200'; sleep 0.3; echo 'ERROR: again'; exit 3`);
    const { id } = rig.shells.start('bash server.sh', rig.dir);
    const started = rig.watches.start(id, { pattern: 'ERROR' });
    expect(started.ok).toBe(true);
    await fs.writeFile(path.join(rig.dir, 'go'), '');
    const notes: string[] = [];
    await waitFor(() => {
      notes.push(...rig.watches.drainNotes());
      return notes.some((n) => n.includes('status="ended"'));
    }, { timeout: 10_000, message: 'the watch ended' });
    const all = notes.join('\n');
    expect(all).toContain('ERROR: db down');
    expect(all).toContain('ERROR: again');
    expect(all).not.toContain('compiled ok');
    expect(all).not.toContain('GET / 200');
    expect(notes.at(-1)).toMatch(/The watched background shell bash_1 \(bash server.sh\) failed with exit code 3; the watch is over\./);
    expect(notes.filter((n) => n.includes('status="ended"'))).toHaveLength(1);
    const seen = watchEvents();
    expect(seen[0]).toMatchObject({ status: 'watching', shell_id: id, pattern: 'ERROR' });
    expect(seen.at(-1)).toMatchObject({ status: 'ended', exit_code: 3 });
    expect(seen.flatMap((e) => e.lines ?? [])).toEqual(['ERROR: db down', 'ERROR: again']);
    expect(rig.watches.list()).toEqual([]);
  });

  it('rate-limits a noisy command: capped lines per delivery, capped deliveries per window, the drops counted', async () => {
    setUp({ maxLines: 5, perWindow: 2, windowMs: 60_000 });
    const { id } = rig.shells.start(`while [ ! -e go ]; do sleep 0.02; done; for r in 1 2 3 4 5; do for i in $(seq 1 200); do echo "noise $r.$i"; done; sleep 0.25; done; sleep 30`, rig.dir);
    expect(rig.watches.start(id, {}).ok).toBe(true);
    await fs.writeFile(path.join(rig.dir, 'go'), '');
    // Two deliveries in the window, then nothing more may go until it moves on.
    await waitFor(() => watchEvents().filter((e) => e.status === 'lines').length === 2, { timeout: 10_000 });
    const first = watchEvents().find((e) => e.status === 'lines')!;
    expect(first.lines).toHaveLength(5);
    expect(first.lines![0]).toBe('noise 1.1');
    expect(first.dropped).toBeGreaterThan(0);
    const notes = rig.watches.drainNotes();
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/\(5 lines; \d+ more dropped by the rate limit \(read them with bash_output\)\)/);
    // The rest of the output is printed (1,000 lines in all), and still only two deliveries went.
    await waitFor(async () => (rig.shells.output(id)?.text ?? '').includes('noise 5.200'), { timeout: 10_000 });
    expect(watchEvents().filter((e) => e.status === 'lines')).toHaveLength(2);
    // Stopping says how many were dropped since the last delivery, and hands over what waited.
    expect(rig.watches.stop(id, 'asked to stop watching')).toBe(true);
    const last = watchEvents().at(-1)!;
    expect(last).toMatchObject({ status: 'stopped', reason: 'asked to stop watching' });
    expect(last.dropped).toBeGreaterThan(0);
    // 2 deliveries of 5 and the 5 that waited when it stopped, of 1,000 lines.
    expect(watchEvents().flatMap((e) => e.lines ?? [])).toHaveLength(15);
  });

  it('lines held back by the rate limit go once the window moves on', async () => {
    setUp({ maxLines: 3, perWindow: 1, windowMs: 700 });
    const { id } = rig.shells.start(`while [ ! -e go ]; do sleep 0.02; done; echo one; sleep 0.3; echo two; echo three; sleep 30`, rig.dir);
    expect(rig.watches.start(id, {}).ok).toBe(true);
    await fs.writeFile(path.join(rig.dir, 'go'), '');
    const at: number[] = [];
    await waitFor(() => {
      const n = watchEvents().filter((e) => e.status === 'lines').length;
      while (at.length < n) at.push(Date.now());
      return n === 2;
    }, { timeout: 10_000 });
    expect(watchEvents().filter((e) => e.status === 'lines').map((e) => e.lines)).toEqual([['one'], ['two', 'three']]);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(700 - 300);
  });

  it('a pattern that backtracks for ever stops the watch, and the engine keeps running meanwhile', async () => {
    setUp({ regexTimeoutMs: 500 });
    const { id } = rig.shells.start(`while [ ! -e go ]; do sleep 0.02; done; echo "${'a'.repeat(40)}b"; sleep 30`, rig.dir);
    expect(rig.watches.start(id, { pattern: '^(a+)+$' }).ok).toBe(true);
    await fs.writeFile(path.join(rig.dir, 'go'), '');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      const stopped = await waitFor(() => {
        const found = watchEvents().find((e) => e.status === 'stopped');
        if (!found) throw new Error('not stopped yet');
        return found;
      }, { timeout: 10_000 });
      expect(stopped.reason).toMatch(/^the pattern \/\^\(a\+\)\+\$\/ took longer than 0.5 s on the shell's output \(catastrophic backtracking\?\)$/);
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThan(10);
    expect(rig.watches.drainNotes().join('\n')).toContain('Stopped watching the background shell bash_1: the pattern');
    // The shell itself goes on.
    expect(rig.shells.list()[0]?.status).toBe('running');
  });

  it('the tool: a bad pattern is an error naming it; unknown and ended shells are told; stop stops', async () => {
    setUp();
    const tool = createMonitorTool(rig.shells, rig.watches);
    const ctx = { cwd: rig.dir, signal: new AbortController().signal };
    const { id } = rig.shells.start('sleep 30', rig.dir);
    const bad = await tool.call({ shell_id: id, pattern: 'error(' }, ctx);
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/^The pattern "error\(" is not a valid regular expression: .*Nothing is being watched\.$/);
    expect(rig.watches.list()).toEqual([]);
    const unknown = await tool.call({ shell_id: 'bash_9' }, ctx);
    expect(unknown).toMatchObject({ isError: true, content: expect.stringContaining('No background shell with id "bash_9". Known shells: bash_1 (running)') });
    const ok = await tool.call({ shell_id: id, pattern: 'fail' }, ctx);
    expect(ok.isError).toBeUndefined();
    expect(ok.content).toMatch(/^Watching bash_1 \(sleep 30\): lines matching \/fail\/ will reach you/);
    expect(tool.effects?.({ shell_id: id })).toBe('none');
    // Claude Code's name, in rules, agents' tool lists and hooks.
    expect(canonicalToolName('Monitor')).toBe(tool.name);
    expect(claudeToolName(tool.name)).toBe('Monitor');
    const stop = await tool.call({ shell_id: id, stop: true }, ctx);
    expect(stop.content).toBe('Stopped watching bash_1; the shell keeps running.');
    expect((await tool.call({ shell_id: id, stop: true }, ctx)).isError).toBe(true);
    await rig.shells.kill(id);
    const ended = await tool.call({ shell_id: id }, ctx);
    expect(ended).toMatchObject({ isError: true, content: expect.stringContaining('has already ended (killed') });
  });
});
