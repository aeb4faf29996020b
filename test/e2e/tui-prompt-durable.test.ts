import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/session/session-list.js';
import { alive } from '../helpers/processes.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

// The built cairn in a real terminal (tmux), given its first prompt on the command line and killed
// with SIGKILL (no code of cairn runs) while start-up or a UserPromptSubmit hook is still running:
// the prompt the user could see is in the session file, and `cairn -c` shows it.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

const PROMPT = 'durable first prompt';

/** The pid of the node process the pane's shell started. */
function cairnPid(term: TmuxTerminal): number | undefined {
  const shell = Number(term.tmux('display', '-p', '#{pane_pid}').trim());
  try {
    const kids = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return kids.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.js'));
  } catch {
    return undefined;
  }
}

/** Hooks in cairn's user settings (no folder trust needed): each touches its marker, then takes its time. */
function slowHooks(home: string, which: { sessionStart: boolean; promptSubmit: boolean }): { started: string; submitted: string } {
  const started = path.join(home, 'session-start.ran');
  const submitted = path.join(home, 'prompt-submit.ran');
  const slow = (marker: string) => [{ hooks: [{ type: 'command', command: `touch '${marker}'; sleep 30` }] }];
  const hooks = {
    ...(which.sessionStart ? { SessionStart: slow(started) } : {}),
    ...(which.promptSubmit ? { UserPromptSubmit: slow(submitted) } : {}),
  };
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ hooks }));
  return { started, submitted };
}

async function killedWhile(marker: (files: { started: string; submitted: string }) => string, which: { sessionStart: boolean; promptSubmit: boolean }) {
  const ws = await tempWorkspace({ 'a.txt': 'one\n' });
  const files = slowHooks(ws.home, which);
  const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, columns: 100, rows: 30 });
  terminals.push(term);
  await term.waitForText('shell$');
  term.type(`node ${cairnBin} '${PROMPT}'`);
  term.keys('Enter');
  const pid: number = await waitFor(() => cairnPid(term) ?? false, { message: 'the cairn process' }).then(Number);
  // The hook is running: start-up (or the prompt's turn) is waiting for it.
  await waitFor(() => existsSync(marker(files)), { timeout: 15_000, message: 'the slow hook to start' });
  // Killed as soon as the prompt is in the transcript, or a moment later if it is not shown at all.
  const shown = await term.waitForScreen((s) => s.includes(`› ${PROMPT}`), 'the prompt in the transcript', 3000).then(
    () => true,
    () => false,
  );
  process.kill(pid, 'SIGKILL');
  await waitFor(() => !alive(pid), { message: 'cairn to die' });
  await term.waitForText('shell$');
  return { ws, term, shown };
}

async function expectResumable(ws: { dir: string; home: string }, term: TmuxTerminal): Promise<void> {
  const sessions = await listSessions(ws.home, ws.dir);
  expect(sessions).toHaveLength(1);
  expect(sessions[0]?.firstPrompt).toBe(PROMPT);
  // No hooks this time: `cairn -c` opens the session and shows the prompt in its transcript.
  writeFileSync(path.join(ws.home, 'settings.json'), '{}');
  term.type(`clear; node ${cairnBin} -c`);
  term.keys('Enter');
  const screen = await term.waitForScreen((s) => s.includes('Ask cairn') && s.includes('Resumed session'), 'the resumed session');
  expect(screen).toContain(`› ${PROMPT}`);
}

describe.skipIf(!TmuxTerminal.available())('a command-line prompt survives kill -9', () => {
  it('killed while a SessionStart hook holds start-up: the prompt is on screen and in the session file', async () => {
    const { ws, term, shown } = await killedWhile((f) => f.started, { sessionStart: true, promptSubmit: true });
    await expectResumable(ws, term);
    // And it was on screen while start-up went on.
    expect(shown).toBe(true);
  });

  it('killed while a UserPromptSubmit hook runs: the prompt is in the session file', async () => {
    const { ws, term, shown } = await killedWhile((f) => f.submitted, { sessionStart: false, promptSubmit: true });
    await expectResumable(ws, term);
    expect(shown).toBe(true);
  });
});
