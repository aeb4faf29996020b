import { mkdtemp, readdir, readFile, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTui } from '../../components/app/run-tui.js';
import { ENTER_SCREEN, LEAVE_SCREEN } from '../../components/app/terminal-output.js';
import { stripAnsi } from '../../components/theme/ansi.js';
import { createPermissionChecker } from '../../src/permissions/checker.js';
import { createOfflineProvider } from '../../src/providers/offline.js';
import { AgentSession } from '../../src/session/agent-session.js';
import { createBuiltinTools } from '../../src/tools/builtin.js';
import { waitFor } from '../helpers/wait-for.js';
import { FakeStdin, FakeStdout } from '../helpers/fake-tty.js';

async function setup(env: NodeJS.ProcessEnv = {}, extra: { replayFile?: string; handleProcessEvents?: boolean } = {}) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-run-')));
  const session = new AgentSession({
    provider: createOfflineProvider(),
    tools: createBuiltinTools(),
    // cairn's own checker, no rules: a write is asked about.
    permissions: createPermissionChecker({ workspace: base, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(base, 'home') }),
    cwd: base,
    system: () => 'sys',
    interactive: true,
  });
  const stdin = new FakeStdin();
  const stdout = new FakeStdout(60, 15);
  const stderr = new FakeStdout(60, 15);
  const done = runTui({
    session,
    cwd: base,
    cairnHome: join(base, 'home'),
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    env,
    handleProcessEvents: extra.handleProcessEvents ?? false,
    ...(extra.replayFile ? { replayFile: extra.replayFile, replaySpeed: 50 } : {}),
  });
  await waitFor(() => stripAnsi(stdout.out).includes('Ask cairn'), { message: 'first frame' });
  return { base, session, stdin, stdout, stderr, done };
}

describe('runTui', () => {
  it('enters the alternate screen with paste reporting (mouse reporting off: the terminal selects text), and restores all of it on /exit', async () => {
    const t = await setup();
    expect(t.stdout.out.startsWith(ENTER_SCREEN)).toBe(true);
    expect(t.stdout.out).not.toContain('\x1b[?1000h');
    for (const ch of '/exit') t.stdin.write(ch);
    t.stdin.write('\r');
    expect(await t.done).toBe(0);
    expect(t.stdout.out.endsWith(LEAVE_SCREEN)).toBe(true);
    expect(LEAVE_SCREEN).toContain('\x1b[?1049l');
    expect(LEAVE_SCREEN).toContain('\x1b[?25h');
    expect(LEAVE_SCREEN).toContain('\x1b[?2004l');
    expect(LEAVE_SCREEN).toContain('\x1b[?1000l');
  });

  it('rings the bell with an OSC 9 notification when an approval waits, unless CAIRN_BELL=0', async () => {
    const t = await setup();
    for (const ch of 'write x to c.txt') t.stdin.write(ch);
    t.stdin.write('\r');
    await waitFor(() => t.stdout.out.includes('\x07\x1b]9;cairn: approve write_file?\x07'));
    // The bell rings on the event; Esc answers the prompt only once it is drawn (before, Esc interrupts).
    await waitFor(() => stripAnsi(t.stdout.out).includes('Allow write_file?'));
    t.stdin.write('\x1b');
    // Esc on an approval stops the turn; the person who pressed it needs no bell for that.
    await waitFor(() => !t.session.busy);
    expect(t.stdout.out).not.toContain('turn ended (aborted)');
    t.stdin.write('\x04');
    expect(await t.done).toBe(0);

    const quiet = await setup({ CAIRN_BELL: '0' });
    for (const ch of 'write x to c.txt') quiet.stdin.write(ch);
    quiet.stdin.write('\r');
    await waitFor(() => stripAnsi(quiet.stdout.out).includes('Allow write_file?'));
    expect(quiet.stdout.out).not.toContain('\x1b]9;');
    quiet.stdin.write('\x1b');
    await waitFor(() => !quiet.session.busy);
    quiet.stdin.write('\x04');
    expect(await quiet.done).toBe(0);
  });

  it('SIGTERM restores the terminal and exits 143', async () => {
    const before = new Set(process.listeners('SIGTERM'));
    const t = await setup({}, { handleProcessEvents: true });
    const ours = process.listeners('SIGTERM').filter((l) => !before.has(l));
    expect(ours).toHaveLength(1);
    (ours[0] as () => void)();
    expect(await t.done).toBe(143);
    expect(t.stdout.out.endsWith(LEAVE_SCREEN)).toBe(true);
    expect(process.listeners('SIGTERM').filter((l) => !before.has(l))).toHaveLength(0);
  });

  it('an uncaught error restores the terminal, then prints it with the log path', async () => {
    const before = new Set(process.listeners('uncaughtException'));
    const t = await setup({}, { handleProcessEvents: true });
    const ours = process.listeners('uncaughtException').filter((l) => !before.has(l));
    (ours[0] as (e: Error) => void)(new Error('boom in a timer'));
    expect(await t.done).toBe(1);
    expect(t.stdout.out.endsWith(LEAVE_SCREEN)).toBe(true);
    expect(t.stderr.out).toContain('boom in a timer');
    const logs = await readdir(join(t.base, 'home', 'logs'));
    expect(t.stderr.out).toContain(join(t.base, 'home', 'logs', logs[0]!));
    expect(await readFile(join(t.base, 'home', 'logs', logs[0]!), 'utf8')).toContain('boom in a timer');
  });

  it('replays a recorded session into the transcript', async () => {
    const t = await setup({}, { replayFile: 'test/fixtures/events/read-read-write.jsonl' });
    await waitFor(() => stripAnsi(t.stdout.out).includes('Wrote c.txt'));
    t.stdin.write('\x04');
    expect(await t.done).toBe(0);
  });
});
