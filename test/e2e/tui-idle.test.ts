import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { holdsFor, waitForSteady } from '../helpers/wait-for.js';

const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

async function size(file: string): Promise<number> {
  return (await fs.stat(file).catch(() => ({ size: 0 }))).size;
}

describe.skipIf(!TmuxTerminal.available())('an idle cairn writes nothing', () => {
  it('after an answer, with no spinner on screen, not one byte reaches the terminal', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\n' });
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.type('read a.txt');
    term.keys('Enter');
    await term.waitForText('Read a.txt: 1 line');
    await term.waitForScreen((s) => !/thinking|running|responding/.test(s.split('\n').at(-2) ?? ''), 'the status bar to go quiet');

    // From now on, count every byte the app writes to the terminal.
    const log = path.join(ws.dir, '..', 'pane.log');
    term.tmux('pipe-pane', '-o', `cat >> ${log}`);
    // Let any last frame land, then watch the log for two seconds: not one byte may arrive.
    const before = await waitForSteady(() => size(log), { quietMs: 300, message: 'the pane log to stop growing' });
    await holdsFor(async () => (await size(log)) === before, 2000, { message: 'an idle cairn wrote to the terminal' });
    expect(await size(log)).toBe(before);

    // And it is alive: a key still draws.
    term.type('x');
    await term.waitForScreen((s) => /> x/.test(s), 'the typed key');
    expect(await size(log)).toBeGreaterThan(before);
  });
});
