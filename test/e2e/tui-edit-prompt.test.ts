import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Ctrl+G in the built cairn, in a real terminal: the draft opens in $EDITOR (a script that shows
// the file, reads a line from the terminal and appends it), and the saved text is the new draft.
const { start } = cairnTerminals();

const EDITOR_SCRIPT = '#!/bin/sh\necho "EDITOR-HAS: $(cat "$1")"\nIFS= read -r line\nprintf \'\\n%s\\n\' "$line" >> "$1"\n';

describe.skipIf(!TmuxTerminal.available())('Ctrl+G in a real terminal', () => {
  it('hands the draft to $EDITOR and takes the saved text back as the draft, the screen intact', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-editor-'));
    const editor = path.join(dir, 'append-a-line.sh');
    await fs.writeFile(editor, EDITOR_SCRIPT, { mode: 0o755 });
    const { term } = await start({ env: { EDITOR: editor, VISUAL: '' } });
    term.type('first line of the draft');
    await term.waitForText('first line of the draft');
    term.keys('C-g');
    await term.waitForText('EDITOR-HAS: first line of the draft');
    expect(term.alternateOn()).toBe(false);
    term.type('a line typed in the editor');
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => s.includes('Ask cairn') || s.includes('│ > first line'), 'cairn back');
    expect(term.alternateOn()).toBe(true);
    await term.waitForScreen((s) => /│ > first line of the draft\s*│/.test(s) && /│ {3}a line typed in the editor\s*│/.test(s), 'the edited draft, two lines');
    expect(screen).not.toContain('EDITOR-HAS');
  });
});
