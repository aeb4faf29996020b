import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../helpers/processes.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

// The built cairn in a real terminal (tmux), ended by a signal sent from outside (not a key:
// the TUI reads Ctrl+C as a key in raw mode). The terminal must come back as it was.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

/** The pid of the one child of `parent` (the node process the pane's shell started). */
function childOf(parent: number): number | undefined {
  try {
    const kids = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return kids.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.js'));
  } catch {
    return undefined;
  }
}

/** Starts cairn at the shell and finds its pid, without waiting for its first frame. */
async function launchCairn() {
  const ws = await tempWorkspace({ 'a.txt': 'one\n' });
  // Wheel scrolling on (it is off by default), so the tests see mouse reporting restored too.
  writeFileSync(path.join(ws.home, 'tui.json'), JSON.stringify({ mouse: true }));
  const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home } });
  terminals.push(term);
  await term.waitForText('shell$');
  // Every byte the pane receives, to count how often the terminal was restored.
  const raw = path.join(ws.home, 'pane.raw');
  term.tmux('pipe-pane', '-o', `cat >> ${raw}`);
  term.type(`node ${cairnBin}`);
  term.keys('Enter');
  const shell = Number(term.tmux('display', '-p', '#{pane_pid}').trim());
  const pid: number = await waitFor(() => childOf(shell) ?? false, { message: 'the cairn process' }).then(Number);
  return { term, pid, raw };
}

async function startCairn() {
  const { term, pid, raw } = await launchCairn();
  await term.waitForText('Ask cairn');
  expect(term.alternateOn()).toBe(true);
  // The first frame can be on screen before the app has set the terminal's modes up (early-frame.ts).
  await waitFor(() => mouseOn(term), { message: 'mouse reporting on' });
  // Start-up notices (the sandbox's first-start line) arrive after the first frame: the screen settles first,
  // so a signal meets the app started, not a frame half way through the terminal.
  await term.waitForStable(300);
  return { term, pid, leaves: () => readFileSync(raw, 'latin1').split('\x1b[?1049l').length - 1 };
}

const mouseOn = (term: TmuxTerminal): boolean => term.tmux('display', '-p', '#{mouse_any_flag}').trim() === '1';

async function expectRestored(term: TmuxTerminal, pid: number): Promise<void> {
  await waitFor(() => !alive(pid), { timeout: 10_000, message: 'cairn to exit' });
  await waitFor(() => !term.alternateOn(), { timeout: 5000, message: 'the normal screen' });
  expect(mouseOn(term)).toBe(false);
  // The shell is usable: typed text echoes at a prompt (bracketed paste, cursor are the shell's again).
  term.type('echo after-$((40+2))');
  term.keys('Enter');
  await term.waitForText('after-42');
}

/** Typed text reaches the prompt box and Enter sends it (the offline model answers). */
async function expectTakesKeys(term: TmuxTerminal): Promise<void> {
  term.type('say resumed');
  await term.waitForText('> say resumed');
  term.keys('Enter');
  await term.waitForText('You said: say resumed');
}

/** TCP sockets the process listens on (its socket inodes found in /proc/net/tcp, state 0A). */
function listeningSockets(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m?.[1]) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  const rows = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((f) => readFileSync(f, 'utf8').split('\n').slice(1));
  return rows.map((r) => r.trim().split(/\s+/)).filter((c) => c[3] === '0A' && inodes.has(c[9] ?? '')).map((c) => c[1] ?? '');
}

describe.skipIf(!TmuxTerminal.available())('signals from outside restore the terminal', () => {
  for (const signal of ['SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`kill -${signal.slice(3)}: cairn exits, the alternate screen and mouse reporting are off`, async () => {
      const { term, pid } = await startCairn();
      process.kill(pid, signal);
      await expectRestored(term, pid);
    });
  }

  it('kill -KILL, which runs no code of cairn: the watchdog restores the terminal', async () => {
    const { term, pid } = await startCairn();
    process.kill(pid, 'SIGKILL');
    await expectRestored(term, pid);
  });

  it('a normal exit restores the terminal once: the watchdog stays quiet (a second restore would move the cursor)', async () => {
    const { term, pid, leaves } = await startCairn();
    term.keys('C-d');
    await expectRestored(term, pid);
    expect(leaves()).toBe(1);
    // The signal path too.
    const second = await startCairn();
    process.kill(second.pid, 'SIGINT');
    await expectRestored(second.term, second.pid);
    expect(second.leaves()).toBe(1);
  });

  it('kill -QUIT as soon as the first frame is drawn (before the app has taken over): the terminal is restored', async () => {
    const { term, pid } = await launchCairn();
    // The early frame is on screen before the engine loads; mouse reporting comes with the app.
    await term.waitForScreen((s) => s.includes('sk cairn'), 'the first frame', 15_000);
    process.kill(pid, 'SIGQUIT');
    await expectRestored(term, pid);
  });

  it('kill -TSTP from outside, then fg: the shell gets a normal terminal, and the app comes back taking keys', async () => {
    const { term, pid } = await startCairn();
    process.kill(pid, 'SIGTSTP');
    await term.waitForText('Stopped');
    await waitFor(() => !term.alternateOn() && !mouseOn(term), { message: 'the normal screen while stopped' });
    // The shell echoes what is typed: cooked mode is back for it.
    term.type('echo while-$((6*7))');
    term.keys('Enter');
    await term.waitForText('while-42');
    term.type('fg');
    term.keys('Enter');
    await waitFor(() => term.alternateOn() && mouseOn(term), { message: 'the app screen again' });
    await term.waitForText('Ask cairn');
    await expectTakesKeys(term);
  });

  it('kill -STOP (no code of cairn runs), then fg: raw mode again, the screen redrawn, keys reach the prompt', async () => {
    const { term, pid } = await startCairn();
    process.kill(pid, 'SIGSTOP');
    await term.waitForText('Stopped');
    term.type('fg');
    term.keys('Enter');
    // The shell's job line is drawn over by the app's whole frame.
    await term.waitForScreen((s) => !s.includes('Stopped') && s.includes('Ask cairn'), 'the redrawn app');
    await expectTakesKeys(term);
  });

  it('kill -USR1 does not open the Node inspector: nothing listens for a debugger, and the app goes on', async () => {
    const { term, pid } = await startCairn();
    process.kill(pid, 'SIGUSR1');
    // Node opens it at once when it does (on 127.0.0.1:9229); give it the time a poll takes anyway.
    await new Promise((r) => setTimeout(r, 500));
    expect(listeningSockets(pid)).toEqual([]);
    expect(term.screen()).not.toMatch(/Debugger listening/);
    await expectTakesKeys(term);
  });

  it('SIGINT while a turn is streaming still exits cleanly', async () => {
    const { term, pid } = await startCairn();
    term.type('stream 2000 at 200/s');
    term.keys('Enter');
    await term.waitForText('interrupt');
    process.kill(pid, 'SIGINT');
    await expectRestored(term, pid);
  });
});
