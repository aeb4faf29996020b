import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

describe.skipIf(!TmuxTerminal.available())('scheduled prompts in a real terminal', () => {
  it('a cron task for every minute fires on a fast clock; its notice appears while the user types, the draft intact', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\n' });
    // CAIRN_CLOCK_SPEED=60: one real second counts as one minute (for tests only).
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, CAIRN_CLOCK_SPEED: '60' } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');

    term.type('schedule "* * * * *" read a.txt');
    term.keys('Enter');
    await term.waitForText('Allow cron_create?');
    await term.pauseBeforeAnswering();
    term.keys('y');
    await term.waitForScreen((s) => /Ask cairn/.test(s) && /cron_create/.test(s), 'the task to be created');

    term.type('my unfinished draft');
    const fired = await term.waitForScreen((s) => /fired/.test(s), 'a cron notice', 30_000);
    expect(fired).toMatch(/\* \* \* \* \*/);
    // The fired prompt ran as a turn (the offline model reads a.txt) and the draft was not touched.
    const after = await term.waitForText('Read a.txt', 30_000);
    expect(after).toMatch(/my unfinished draft/);
    term.keys('C-c');
    term.keys('C-c');
  }, 90_000);
});
