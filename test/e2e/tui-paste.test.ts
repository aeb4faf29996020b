import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The built cairn in a real terminal (tmux), on the offline model.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

describe.skipIf(!TmuxTerminal.available())('bracketed paste in a real terminal', () => {
  it('a paste start marker with no end marker: the text arrives after a short silence and later keys are typed', async () => {
    const ws = await tempWorkspace();
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');

    // ESC [ 2 0 0 ~ as raw bytes, then the pasted text; the terminal never sends ESC [ 2 0 1 ~.
    term.keys('-H', '1b', '5b', '32', '30', '30', '7e');
    term.type('pasted words');
    await term.waitForText('pasted words', 5000);
    term.type(' then typed');
    const screen = await term.waitForText('pasted words then typed', 5000);
    expect(screen).toContain('pasted words then typed');
  });
});
