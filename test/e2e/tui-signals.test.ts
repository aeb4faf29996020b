import { readFileSync, writeFileSync } from 'node:fs';
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

async function startCairn() {
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
  await term.waitForText('Ask cairn');
  const shell = Number(term.tmux('display', '-p', '#{pane_pid}').trim());
  const pid: number = await waitFor(() => childOf(shell) ?? false, { message: 'the cairn process' }).then(Number);
  expect(term.alternateOn()).toBe(true);
  // The first frame can be on screen before the app has set the terminal's modes up (early-frame.ts).
  await waitFor(() => mouseOn(term), { message: 'mouse reporting on' });
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

  it('SIGINT while a turn is streaming still exits cleanly', async () => {
    const { term, pid } = await startCairn();
    term.type('stream 2000 at 200/s');
    term.keys('Enter');
    await term.waitForText('interrupt');
    process.kill(pid, 'SIGINT');
    await expectRestored(term, pid);
  });
});
