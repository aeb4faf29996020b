import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The full view in the built cairn, in a real terminal (the transcript's rows are drawn by the frame writer).

const { start } = cairnTerminals();
const startCairn = (args = '') => start({ args, columns: 100, rows: 30 });

describe.skipIf(!TmuxTerminal.available())('the full view in a real terminal', () => {
  it('Enter on a failing command card shows all its output; / and n find the failures; q comes back', async () => {
    const { term } = await startCairn('--allowed-tools bash');
    term.type('run for i in $(seq 1 40); do echo "ok $i"; done; echo "FA""IL parser: expected 2 to be 3"; echo "FA""IL lexer"; exit 1');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Tab, Enter shows all') && s.includes('Ask cairn'), 'the failed card');
    // Folded, the card previews where it failed (the end of the output), not the passing start.
    expect(term.screen()).toContain('FAIL parser: expected 2 to be 3');
    expect(term.screen()).toMatch(/earlier lines · Tab, Enter shows all/);
    expect(term.screen()).not.toMatch(/⎿ ok 5$/m);
    term.keys('Tab');
    // Tab and Enter sent in one read would be typed text (a paste without markers): wait for the focus to move.
    await term.waitForScreen(() => /\x1b\[7m bash /.test(term.styledScreen()), 'the bash card selected');
    term.keys('Enter');
    await term.waitForText('q back');
    term.type('/FAIL');
    term.keys('Enter');
    let screen = await term.waitForText('match 1/2');
    expect(screen).toContain('FAIL parser: expected 2 to be 3');
    term.keys('n');
    await term.waitForText('match 2/2');
    term.keys('q');
    screen = await term.waitForScreen((s) => !s.includes('q back') && s.includes('Tab, Enter shows all'), 'the transcript again');
    expect(screen).not.toMatch(/⎿ ok 5$/m);
  });

  it('a command that worked previews its last lines folded, not nothing and not its start', async () => {
    const { term } = await startCairn('--allowed-tools bash');
    term.type('run for i in $(seq 1 30); do echo "step $i"; done; echo "all steps passed"');
    term.keys('Enter');
    // The answer quotes the output too (in a code block); the card's folded preview is the ⎿ line.
    const preview = (s: string): string => s.split('\n').filter((l) => l.startsWith('⎿')).join('\n');
    const expected = ['⎿ … 28 earlier lines · Tab, Enter shows all', '⎿ step 29', '⎿ step 30', '⎿ all steps passed'].join('\n');
    await term.waitForScreen((s) => preview(s) === expected && s.includes('Ask cairn'), 'the passing card previewing its last lines');
  });

  it('v in an approval shows the whole diff of a long write; q returns to the approval, still waiting', async () => {
    const { term, ws } = await startCairn();
    // Pasted (bracketed), so the 60 lines are one prompt.
    const rows = Array.from({ length: 60 }, (_, i) => `row ${i + 1}`).join('\n');
    term.tmux('set-buffer', `write ${rows} to big.txt`);
    term.tmux('paste-buffer', '-p');
    term.keys('Enter');
    await term.waitForText('Allow write_file?');
    expect(term.screen()).not.toContain('+row 60');
    await term.pauseBeforeAnswering();
    term.keys('v');
    await term.waitForText('the approval waits behind this view');
    term.keys('End');
    await term.waitForText('+row 60');
    term.keys('q');
    await term.waitForScreen((s) => s.includes('Allow write_file?') && s.includes('› Yes (y)'), 'the approval again');
    term.keys('y');
    await term.waitForText('Wrote');
    expect((await fs.readFile(path.join(ws.dir, 'big.txt'), 'utf8')).split('\n')[59]).toBe('row 60');
  });
});
