import fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/session/session-list.js';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Sessions in the built cairn, in a real terminal: leaving says how to come back, and a session
// file can be watched again with --replay.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

const files = { 'a.txt': 'one\ntwo\nthree\n' };

async function terminalIn(ws: { dir: string; home: string }): Promise<TmuxTerminal> {
  const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, columns: 110, rows: 36 });
  terminals.push(term);
  await term.waitForText('shell$');
  return term;
}

describe.skipIf(!TmuxTerminal.available())('sessions in a real terminal', () => {
  it('on exit the normal screen shows the command that resumes the session, and that command works', async () => {
    const ws = await tempWorkspace(files);
    const term = await terminalIn(ws);
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.type('read a.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Read a.txt: 3 lines') && s.includes('Ask cairn'), 'the answer');
    term.keys('C-d');
    const screen = await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt');
    const [session] = await listSessions(ws.home, ws.dir);
    expect(screen).toContain(`cairn --resume ${session!.id}`);

    term.type(`node ${cairnBin} --resume ${session!.id.slice(0, 8)}`);
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Resumed session') && /› read a\.txt/.test(s), 'the resumed session');
  });

  it('leaving before anything was said prints no resume command (there is no session to resume)', async () => {
    const ws = await tempWorkspace(files);
    const term = await terminalIn(ws);
    term.type(`echo before; node ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.keys('C-d');
    const screen = await term.waitForScreen((s) => /^shell\$\s*$/m.test(s) && s.includes('before'), 'the shell prompt');
    expect(screen).not.toContain('--resume');
  });

  it('--replay plays one of cairn\'s own session files', async () => {
    const ws = await tempWorkspace(files);
    expect((await runCairn(['-p', 'read a.txt'], { cwd: ws.dir, home: ws.home })).code).toBe(0);
    const [session] = await listSessions(ws.home, ws.dir);
    expect((await fs.readFile(session!.file, 'utf8')).split('\n')[0]).toContain('"session_header"');
    const term = await terminalIn(ws);
    term.type(`node ${cairnBin} --replay ${session!.file} --replay-speed 20`);
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => /› read a\.txt/.test(s) && s.includes('Read a.txt: 3 lines'), 'the replayed session');
    expect(screen).toMatch(/✓ read_file a\.txt/);
    expect(screen).not.toContain('Replay failed');
  });
});
