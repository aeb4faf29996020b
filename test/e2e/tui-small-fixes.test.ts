import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 12 item 19, the parts about what the screen says: a one-line file and /team spawn.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

const count = (text: string, part: string): number => text.split(part).length - 1;

describe.skipIf(!TmuxTerminal.available())('small things on screen', () => {
  it('"created, 1 line"; /team spawn says it started once', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\ntwo\n' });
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin} --permission-mode acceptEdits`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');

    term.type('write hello to new.txt');
    term.keys('Enter');
    const written = await term.waitForText('write_file new.txt');
    await term.waitForScreen((s) => /write_file new\.txt.*created, 1 line\b/.test(s), 'the summary');
    expect(term.screen()).not.toContain('1 lines');
    expect(written).toBeTruthy();

    term.type('/team spawn scout explore read a.txt');
    term.keys('Enter');
    await term.waitForText('Teammate scout started.');
    const screen = await term.waitForStable();
    expect(count(screen, 'started.')).toBe(1);
  });
});
