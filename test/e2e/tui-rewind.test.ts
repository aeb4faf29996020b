import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnBin } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Rewind in the built cairn, in a real terminal: Esc Esc on the empty prompt lists earlier prompts;
// restoring both puts the files and the conversation back, and a resumed session stays rewound.
const { start } = cairnTerminals();

const gone = async (file: string): Promise<boolean> => access(file).then(() => false, () => true);

describe.skipIf(!TmuxTerminal.available())('rewind in a real terminal', () => {
  it('write a file, edit it, Esc Esc, pick the first prompt, restore both: the file is gone and the transcript ends before it, also after cairn -c', async () => {
    const { term, ws } = await start({ args: '--permission-mode acceptEdits', columns: 110, rows: 36, files: { 'keep.txt': 'kept\n' } });
    const notes = join(ws.dir, 'notes.md');
    term.type('write hello to notes.md');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Wrote') && s.includes('Ask cairn'), 'the first turn to end');
    term.type('edit notes.md: replace hello with bye');
    term.keys('Enter');
    await term.waitForScreen((s) => /Edited|edit_file notes\.md/.test(s) && s.includes('Ask cairn') && !s.includes('esc to interrupt'), 'the second turn to end');
    expect(await readFile(notes, 'utf8')).toBe('bye\n');

    term.keys('Escape');
    term.keys('Escape');
    let screen = await term.waitForText('Rewind to before a prompt');
    expect(screen).toMatch(/› edit notes\.md: replace hello with bye/);
    expect(screen).toContain('write hello to notes.md');
    term.keys('Up');
    await term.waitForScreen((s) => /› write hello to notes\.md/.test(s), 'the first prompt selected');
    term.keys('Enter');
    screen = await term.waitForText('Rewind to before: write hello to notes.md');
    expect(screen).toMatch(/delete\s+notes\.md/);
    expect(screen).toMatch(/› 1\. Restore code and conversation/);
    term.keys('Enter');
    // The rewound prompt comes back in the prompt box to edit or send.
    screen = await term.waitForScreen((s) => s.includes('Conversation rewound') && /│ > write hello to notes\.md/.test(s), 'the rewind to finish');
    expect(screen).toContain('Restored 1 of 1 file');
    expect(screen).not.toMatch(/› write hello to notes\.md/);
    expect(screen).not.toMatch(/edit notes\.md: replace/);
    expect(await gone(notes)).toBe(true);
    expect(await readFile(join(ws.dir, 'keep.txt'), 'utf8')).toBe('kept\n');
    // Checkpoints are kept under CAIRN_HOME, never in the user's workspace.
    expect(await readdir(ws.dir)).toEqual(['keep.txt']);

    // Quit and continue: the session comes back rewound.
    term.keys('C-u');
    term.keys('C-d');
    await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt');
    term.type(`clear; node ${cairnBin} -c`);
    term.keys('Enter');
    screen = await term.waitForScreen((s) => s.includes('Ask cairn') && s.includes('Resumed session'), 'the resumed session');
    expect(screen).not.toMatch(/› write hello to notes\.md/);
    expect(screen).not.toMatch(/› edit notes\.md/);
    term.type('/rewind');
    term.keys('Enter');
    await term.waitForText('No earlier prompt to rewind to');
    expect(await gone(notes)).toBe(true);
  });

  it('after /clear, rewinding the new conversation\'s prompt deletes only its file: the earlier conversation\'s file stays', async () => {
    const { term, ws } = await start({ args: '--permission-mode acceptEdits', columns: 110, rows: 36 });
    term.type('write kept to keep.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Wrote') && s.includes('Ask cairn') && !s.includes('esc to interrupt'), 'the first turn to end');
    term.type('/clear');
    term.keys('Enter');
    await term.waitForScreen((s) => !s.includes('write kept to keep.txt'), 'the conversation cleared');
    term.type('write new to other.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Wrote') && s.includes('Ask cairn') && !s.includes('esc to interrupt'), 'the second turn to end');

    term.keys('Escape');
    term.keys('Escape');
    await term.waitForScreen((s) => s.includes('Rewind to before a prompt') && /› write new to other\.txt/.test(s), 'the list, the last prompt selected');
    term.keys('Enter');
    let screen = await term.waitForText('Rewind to before: write new to other.txt');
    expect(screen).toMatch(/delete\s+other\.txt/);
    expect(screen).not.toContain('keep.txt');
    expect(screen).toContain('Code restore changes 1 file');
    term.keys('Enter');
    screen = await term.waitForScreen((s) => s.includes('Conversation rewound'), 'the rewind to finish');
    expect(screen).toContain('Restored 1 of 1 file');
    expect(await gone(join(ws.dir, 'other.txt'))).toBe(true);
    expect(await readFile(join(ws.dir, 'keep.txt'), 'utf8')).toBe('kept\n');
  });

  it('code only puts the file back and keeps the conversation; conversation only keeps the files', async () => {
    const { term, ws } = await start({ args: '--permission-mode acceptEdits', columns: 110, rows: 36 });
    const notes = join(ws.dir, 'notes.md');
    term.type('write hello to notes.md');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Wrote') && s.includes('Ask cairn'), 'the first turn to end');
    term.type('edit notes.md: replace hello with bye');
    term.keys('Enter');
    await term.waitForScreen((s) => /edit_file notes\.md/.test(s) && s.includes('Ask cairn') && !s.includes('esc to interrupt'), 'the second turn to end');

    term.type('/rewind');
    term.keys('Enter');
    // The dialog first: the prompt's line is in the transcript too, and an Enter sent before the
    // dialog opens goes to the empty prompt box.
    await term.waitForText('Rewind to before a prompt');
    await term.waitForScreen((s) => /› edit notes\.md: replace hello with bye/.test(s), 'the newest prompt selected');
    term.keys('Enter');
    let screen = await term.waitForText('Rewind to before: edit notes.md');
    expect(screen).toMatch(/restore\s+notes\.md/);
    term.type('3');
    screen = await term.waitForScreen((s) => s.includes('Restored 1 of 1 file') && !s.includes('Rewind to before'), 'code restored');
    expect(await readFile(notes, 'utf8')).toBe('hello\n');
    expect(screen).toMatch(/› edit notes\.md: replace hello with bye/);
    expect(screen).not.toContain('Conversation rewound');

    term.keys('Escape');
    term.keys('Escape');
    await term.waitForText('Rewind to before a prompt');
    term.keys('Enter');
    await term.waitForText('Rewind to before: edit notes.md');
    term.type('2');
    screen = await term.waitForScreen((s) => s.includes('Conversation rewound') && /│ > edit notes\.md/.test(s), 'conversation rewound');
    expect(screen).toMatch(/› write hello to notes\.md/);
    expect(screen).not.toMatch(/› edit notes\.md/);
    expect(await readFile(notes, 'utf8')).toBe('hello\n');
  });
});
