import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The built cairn in a real terminal (tmux), on the offline model.
const { start } = cairnTerminals();

describe.skipIf(!TmuxTerminal.available())('bracketed paste in a real terminal', () => {
  it('a paste start marker with no end marker: the text arrives after a short silence and later keys are typed', async () => {
    const { term } = await start();

    // ESC [ 2 0 0 ~ as raw bytes, then the pasted text; the terminal never sends ESC [ 2 0 1 ~.
    term.keys('-H', '1b', '5b', '32', '30', '30', '7e');
    term.type('pasted words');
    await term.waitForText('pasted words', 5000);
    term.type(' then typed');
    const screen = await term.waitForText('pasted words then typed', 5000);
    expect(screen).toContain('pasted words then typed');
  });
});
