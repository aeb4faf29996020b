import { afterEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/session/session-list.js';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The built cairn in a real terminal (tmux), on the offline model: sessions survive the process.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

const files = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'alpha\nbeta\n' };

async function terminalIn(ws: { dir: string; home: string }): Promise<TmuxTerminal> {
  const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, columns: 110, rows: 36 });
  terminals.push(term);
  await term.waitForText('shell$');
  return term;
}

describe.skipIf(!TmuxTerminal.available())('resuming sessions in a real terminal', () => {
  it('cairn -c re-renders a headless session; /resume opens the picker and switches sessions', async () => {
    const ws = await tempWorkspace(files);
    const first = await runCairn(['-p', 'read a.txt'], { cwd: ws.dir, home: ws.home });
    expect(first.code).toBe(0);
    const second = await runCairn(['-p', 'read b.txt'], { cwd: ws.dir, home: ws.home });
    expect(second.code).toBe(0);

    const term = await terminalIn(ws);
    term.type(`node ${cairnBin} -c`);
    term.keys('Enter');
    // The newest session (b.txt) is on screen as it was left.
    let screen = await term.waitForScreen((s) => s.includes('Ask cairn') && s.includes('Resumed session'), 'the resumed transcript');
    expect(screen).toMatch(/› read b\.txt/);
    expect(screen).toMatch(/✓ read_file b\.txt/);
    expect(screen).not.toMatch(/read a\.txt/);

    term.type('/resume');
    term.keys('Enter');
    screen = await term.waitForText('Resume a session');
    expect(screen).toMatch(/\d+ msgs\s+read a\.txt/);
    expect(screen).toMatch(/read b\.txt \(this session\)/);
    term.type('a.txt');
    await term.waitForScreen((s) => s.includes('filter: a.txt') && !/msgs\s+read b\.txt/.test(s), 'the filtered list');
    term.keys('Enter');
    // cairn reopens on the other session: its transcript replaces this one.
    screen = await term.waitForScreen((s) => /› read a\.txt/.test(s) && s.includes('Ask cairn') && !s.includes('Resume a session'), 'the first session');
    expect(screen).toMatch(/✓ read_file a\.txt/);
    expect(screen).not.toMatch(/› read b\.txt/);

    // And the conversation goes on in that session's file.
    term.type('read b.txt');
    term.keys('Enter');
    // The answer is on screen before its turn ends; wait for the idle prompt so it is recorded.
    await term.waitForScreen((s) => s.includes('Read b.txt') && s.includes('Ask cairn'), 'the turn to end');
    term.keys('C-d');
    await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt');
    expect(term.alternateOn()).toBe(false);
    const sessions = await listSessions(ws.home, ws.dir);
    expect(sessions).toHaveLength(2);
    const resumed = sessions.find((s) => s.firstPrompt === 'read a.txt');
    expect(resumed?.messageCount).toBe(4 + 2);
  });

  it('cairn --resume without an id opens the picker first; Esc leaves a fresh session', async () => {
    const ws = await tempWorkspace(files);
    expect((await runCairn(['-p', 'read a.txt'], { cwd: ws.dir, home: ws.home })).code).toBe(0);
    const term = await terminalIn(ws);
    term.type(`node ${cairnBin} --resume`);
    term.keys('Enter');
    let screen = await term.waitForScreen((s) => s.includes('Resume a session') && s.includes('Ask cairn'), 'the picker');
    expect(screen).toMatch(/read a\.txt/);
    term.keys('Escape');
    screen = await term.waitForScreen((s) => !s.includes('Resume a session'), 'the picker to close');
    expect(screen).not.toMatch(/› read a\.txt/);
    term.type('/resume');
    term.keys('Enter');
    await term.waitForText('Resume a session');
    term.keys('Enter');
    await term.waitForScreen((s) => /› read a\.txt/.test(s) && s.includes('Resumed session'), 'the picked session');
  });
});
