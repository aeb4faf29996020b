import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createShellManager, type BackgroundShellEvent, type ShellManager } from '../../../src/shells/shell-manager.js';
import { alive } from '../../helpers/processes.js';

let dir: string;
let events: BackgroundShellEvent[];
let shells: ShellManager;
const strays: number[] = [];


function pidIn(text: string): number {
  const m = /^(\d+)$/m.exec(text);
  if (!m?.[1]) throw new Error(`no pid in: ${text}`);
  strays.push(Number(m[1]));
  return Number(m[1]);
}

/** Reads until the accumulated output satisfies the predicate. */
async function readUntil(id: string, ok: (all: string) => boolean): Promise<string> {
  let all = '';
  await vi.waitFor(
    () => {
      all += shells.read(id)?.newOutput ?? '';
      expect(ok(all)).toBe(true);
    },
    { timeout: 5000, interval: 20 },
  );
  return all;
}

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-shells-')));
  events = [];
  shells = createShellManager({ onEvent: (e) => events.push(e) });
});
afterEach(async () => {
  shells.killAll();
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await fs.rm(dir, { recursive: true, force: true });
});

describe('background shells', () => {
  it('output() shows everything printed so far without marking it read for bash_output', async () => {
    const { id } = shells.start("echo one; echo two; echo three", dir);
    await vi.waitFor(() => expect(shells.list()[0]?.status).toBe('completed'), { timeout: 5000, interval: 20 });
    expect(shells.output(id)).toMatchObject({ text: 'one\ntwo\nthree\n', truncated: false, info: { id, status: 'completed', exitCode: 0 } });
    expect(shells.read(id)?.newOutput).toBe('one\ntwo\nthree\n');
    // Read by the model: still all there for the user.
    expect(shells.output(id)?.text).toBe('one\ntwo\nthree\n');
    expect(shells.output('bash_9')).toBeUndefined();
  });

  it('runs in cwd, returns new output on each read, and reports completion with the exit code', async () => {
    const { id } = shells.start('pwd; echo one; sleep 0.5; echo two >&2; exit 3', dir);
    expect(id).toBe('bash_1');
    expect(events).toEqual([{ type: 'background_shell', id, command: expect.stringContaining('pwd'), status: 'running' }]);
    const first = await readUntil(id, (all) => all.includes('one'));
    expect(first).toBe(`${dir}\none\n`);
    expect(shells.read(id)?.status).toBe('running');
    await vi.waitFor(() => expect(shells.list()[0]?.status).toBe('failed'), { timeout: 5000, interval: 20 });
    const rest = shells.read(id);
    expect(rest).toMatchObject({ newOutput: 'two\n', status: 'failed', exitCode: 3 });
    expect(shells.read(id)?.newOutput).toBe('');
    expect(events.at(-1)).toMatchObject({ id, status: 'failed', exit_code: 3 });
    const lines = shells.drainCompletions();
    expect(lines).toEqual([expect.stringMatching(/^Background shell bash_1 \(pwd; echo one.*\) failed with exit code 3\./)]);
    expect(shells.drainCompletions()).toEqual([]);
  });

  it("run with the session's environment when given one (a served session's settings env), not process.env", async () => {
    expect(process.env['CAIRN_SESSION_ONLY']).toBeUndefined();
    const own = createShellManager({ onEvent: () => undefined, env: { ...process.env, CAIRN_SESSION_ONLY: 'yes' } });
    try {
      const { id } = own.start('echo "own=[$CAIRN_SESSION_ONLY]"', dir);
      await vi.waitFor(() => expect(own.output(id)?.text).toContain('own=[yes]'), { timeout: 5000, interval: 20 });
    } finally {
      own.killAll();
    }
    const { id } = shells.start('echo "default=[$CAIRN_SESSION_ONLY]"', dir);
    expect(await readUntil(id, (all) => all.includes('default=['))).toContain('default=[]');
  });

  it('reports a clean exit as completed', async () => {
    const { id } = shells.start('echo done', dir);
    await vi.waitFor(() => expect(events.at(-1)).toMatchObject({ id, status: 'completed', exit_code: 0 }), { timeout: 5000 });
    expect(shells.drainCompletions()[0]).toContain('bash_1 (echo done) completed with exit code 0');
    expect(shells.read(id)).toMatchObject({ newOutput: 'done\n', exitCode: 0 });
  });

  it('kill stops the whole process group and is not reported as a completion', async () => {
    const { id } = shells.start("trap '' TERM; sleep 30 & echo $!; wait", dir);
    const pid = pidIn(await readUntil(id, (all) => /^\d+$/m.test(all)));
    expect(alive(pid)).toBe(true);
    expect(await shells.kill(id)).toBe(true);
    expect(shells.list()[0]).toMatchObject({ id, status: 'killed' });
    expect(events.at(-1)).toMatchObject({ id, status: 'killed' });
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 5000, interval: 50 });
    expect(shells.drainCompletions()).toEqual([]);
    expect(await shells.kill(id)).toBe(false);
    expect(await shells.kill('bash_99')).toBe(false);
  });

  it('killAll kills every running group at once', async () => {
    const a = shells.start('sleep 30 & echo $!; wait', dir);
    const b = shells.start('sleep 30 & echo $!; wait', dir);
    const pids = [
      pidIn(await readUntil(a.id, (all) => /^\d+$/m.test(all))),
      pidIn(await readUntil(b.id, (all) => /^\d+$/m.test(all))),
    ];
    shells.killAll();
    await vi.waitFor(() => expect(shells.list().map((s) => s.status)).toEqual(['killed', 'killed']), { timeout: 5000 });
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]), { timeout: 5000, interval: 50 });
  });

  it('killAll also ends what a shell moved out of its group (setsid), asking with SIGTERM first and insisting with SIGKILL', async () => {
    const trapped = path.join(dir, 'trapped');
    // One leaves for a session of its own and obeys TERM after noting it; the other ignores TERM.
    const a = shells.start(`setsid sh -c 'trap "echo term > ${trapped}; exit 0" TERM; echo $$; while :; do sleep 0.05; done' & wait`, dir);
    const b = shells.start(`setsid sh -c 'trap "" TERM; echo $$; exec sleep 30' & wait`, dir);
    const pids = [pidIn(await readUntil(a.id, (all) => /^\d+$/m.test(all))), pidIn(await readUntil(b.id, (all) => /^\d+$/m.test(all)))];
    expect(pids.filter(alive)).toEqual(pids);
    const report = shells.killAll(300);
    expect(report.survivors).toEqual([]);
    expect(report.ended).toBeGreaterThanOrEqual(4); // the two shells and the two that left their groups
    expect(pids.filter(alive)).toEqual([]);
    expect(await fs.readFile(trapped, 'utf8')).toBe('term\n');
  });

  it('keeps the head and tail of output over the cap between reads', async () => {
    const small = createShellManager({ onEvent: () => {}, maxOutputChars: 100 });
    const { id } = small.start('seq 1 5000', dir);
    await vi.waitFor(() => expect(small.list()[0]?.status).toBe('completed'), { timeout: 5000 });
    const r = small.read(id);
    expect(r?.truncated).toBe(true);
    expect(r?.newOutput.startsWith('1\n2\n3\n')).toBe(true);
    expect(r?.newOutput.endsWith('4999\n5000\n')).toBe(true);
    expect(r?.newOutput).toMatch(/\.\.\. \d+ chars omitted \(to see them, redirect the output to a file and read it with read_file\) \.\.\./);
  });

  it('returns undefined for an unknown id', () => {
    expect(shells.read('bash_42')).toBeUndefined();
  });

  it('reports a shell that could not start as failed', async () => {
    const { id } = shells.start('echo hi', path.join(dir, 'missing'));
    await vi.waitFor(() => expect(shells.list()[0]?.status).toBe('failed'), { timeout: 5000 });
    expect(shells.read(id)?.newOutput).toContain('Could not start bash');
  });
});
