import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// $CAIRN_HOME/keybindings.json in the built cairn, in a real terminal.
const { start } = cairnTerminals();
const statusRow = (screen: string): string => screen.trimEnd().split('\n').at(-1) ?? '';

describe.skipIf(!TmuxTerminal.available())('user keybindings', () => {
  it('a rebound key does the command, and the default key no longer does', async () => {
    const { term } = await start({ homeFiles: { 'keybindings.json': JSON.stringify({ bindings: { cycleMode: ['ctrl+t'] } }) } });
    expect(statusRow(term.screen())).toContain('default');
    term.keys('BTab');
    await term.waitForStable();
    expect(statusRow(term.screen())).toContain('default');
    term.keys('C-t');
    await term.waitForScreen((s) => statusRow(s).includes('accept edits'), 'the mode to change on Ctrl+T');
    // (/help listing the new key is checked in test/components/keys/user-keybindings.test.ts: it is taller than the pane)
  });

  it('a broken file is named in a notice and the default keys stay', async () => {
    const { term } = await start({ homeFiles: { 'keybindings.json': JSON.stringify({ bindings: { cycleMode: ['ctrl+banana'] } }) } });
    await term.waitForText('unknown key "banana"');
    expect(term.screen()).toContain('keybindings.json');
    term.keys('BTab');
    await term.waitForScreen((s) => statusRow(s).includes('accept edits'), 'Shift+Tab still cycling the mode');
  });
});
