import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnBin } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The built cairn in a real terminal (tmux), on the offline model.

const { start } = cairnTerminals();
const startCairn = (files: Record<string, string>, args = '', size = { columns: 120, rows: 40 }) => start({ files, args, ...size, before: 'echo before-cairn; ' });

const files = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'alpha\nbeta\n' };

describe.skipIf(!TmuxTerminal.available())('cairn in a real terminal', () => {
  it('parallel read cards, an inline approval answered with y, a denial with a reason, scrolling, resize, Ctrl+C twice', async () => {
    const { term, ws } = await startCairn(files);
    expect(term.alternateOn()).toBe(true);
    const header = term.screen().split('\n')[0]!;
    expect(header).toMatch(/offline.*default/);

    term.type('read a.txt read b.txt then write hello to c.txt');
    term.keys('Enter');
    let screen = await term.waitForText('Allow write_file?');
    expect(screen).toMatch(/2 tools ran together[\s\S]*read_file a\.txt[\s\S]*read_file b\.txt/);
    expect(screen).toMatch(/\+hello/);
    // The draft typed during the approval stays in the prompt box.
    await term.pauseBeforeAnswering();
    term.keys('y');
    await term.waitForText('Wrote');
    expect(await fs.readFile(path.join(ws.dir, 'c.txt'), 'utf8')).toBe('hello\n');

    term.type('write bye to d.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Allow write_file?') && s.includes('+bye'), 'the second approval');
    await term.pauseBeforeAnswering();
    term.keys('n');
    await term.waitForText('type what to do instead');
    term.type('use e.txt instead');
    term.keys('Enter');
    await term.waitForText('Denied: the user said: use e.txt instead');
    await term.waitForText('write_file failed: Permission denied');
    await expect(fs.access(path.join(ws.dir, 'd.txt'))).rejects.toThrow();

    // Fill the transcript, scroll up and back down.
    term.type('stream 400');
    term.keys('Enter');
    await term.waitForScreen((s) => /Ask cairn/.test(s) && !/interrupt/.test(s), 'the stream to finish');
    const bottom = await term.waitForStable();
    term.keys('PageUp');
    const up = await term.waitForScreen((s) => s !== bottom, 'the view to scroll up');
    expect(up).not.toEqual(bottom);
    term.keys('End');
    await term.waitForScreen((s) => s === bottom, 'the view back at the bottom');

    term.resize(60, 20);
    screen = await term.waitForScreen((s) => s.split('\n').length <= 21 && s.includes('Ask cairn'), 'the 60x20 layout');
    for (const line of screen.split('\n')) expect([...line].length).toBeLessThanOrEqual(60);

    term.keys('C-c');
    await term.waitForText('Ctrl+C again');
    term.keys('C-c');
    await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt');
    expect(term.alternateOn()).toBe(false);
    // What the shell printed before cairn is still there, above the conversation cairn prints on exit.
    const scrollback = term.tmux('capture-pane', '-p', '-J', '-S', '-');
    expect(scrollback).toMatch(/before-cairn/);
    expect(scrollback.indexOf('before-cairn')).toBeLessThan(scrollback.indexOf('Resume this session with'));
  });

  it('Ctrl+D on an empty prompt and /exit leave the terminal as it was', async () => {
    const { term } = await startCairn(files);
    term.keys('C-d');
    await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt after Ctrl+D');
    expect(term.alternateOn()).toBe(false);

    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.type('/exit');
    term.keys('Enter');
    const after = await term.waitForScreen((s) => (s.match(/^shell\$/gm) ?? []).length >= 3, 'the shell prompt after /exit');
    expect(term.alternateOn()).toBe(false);
    // Nothing of the app is drawn on the main screen after it leaves.
    expect(after).not.toMatch(/Ask cairn|shift\+tab/);
  });

  it('cairn "task" opens the app and submits the task at once', async () => {
    const { term } = await startCairn(files, '"read a.txt"');
    await term.waitForText('Read a.txt: 3 lines');
  });
});
