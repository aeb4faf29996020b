import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// $CAIRN_HOME/keybindings.json in the built cairn, in a real terminal.
const { start } = cairnTerminals();
const statusRow = (screen: string): string => screen.trimEnd().split('\n').at(-1) ?? '';

/** The card header drawn selected (its tool name in inverse video) on the screen now. */
function selectedCard(styled: string): string | undefined {
  const m = /\x1b\[7m ([a-z_]+) (?:\x1b\[[\d;]*m)+([^\x1b]*)/.exec(styled);
  return m ? `${m[1]} ${m[2]!.trim()}` : undefined;
}

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

  it('top rebound to Ctrl+T goes to the top of the transcript, not the bottom', async () => {
    const { term } = await start({ files: { 'a.txt': 'alpha\n' }, columns: 100, rows: 30, homeFiles: { 'keybindings.json': JSON.stringify({ bindings: { top: ['ctrl+t'] } }) } });
    term.type('read a.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('✓ read_file a.txt') && s.includes('Ask cairn'), 'the read done');
    // A long answer pushes the read card off the top of the screen.
    term.type('stream 400 at 2000/s');
    term.keys('Enter');
    await term.waitForText('› stream 400');
    await term.waitForScreen((s) => s.includes('Ask cairn') && !s.includes('read_file a.txt'), 'the read card scrolled away');
    term.keys('C-t');
    await term.waitForText('read_file a.txt');
  });

  it('up rebound to k moves the card selection up', async () => {
    const { term } = await start({ files: { 'a.txt': 'alpha\n' }, columns: 100, rows: 30, homeFiles: { 'keybindings.json': JSON.stringify({ bindings: { up: ['k'] } }) } });
    term.type('read a.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('✓ read_file a.txt') && s.includes('Ask cairn'), 'the read done');
    term.type('list');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('✓ list_dir .') && s.includes('Ask cairn'), 'the list done');
    term.keys('Tab');
    await term.waitForScreen(() => selectedCard(term.styledScreen()) === 'list_dir .', 'the newest card selected');
    term.type('k');
    await term.waitForScreen(() => selectedCard(term.styledScreen()) === 'read_file a.txt', 'the selection one card up');
  });

  it('a broken file is named in a notice and the default keys stay', async () => {
    const { term } = await start({ homeFiles: { 'keybindings.json': JSON.stringify({ bindings: { cycleMode: ['ctrl+banana'] } }) } });
    await term.waitForText('unknown key "banana"');
    expect(term.screen()).toContain('keybindings.json');
    term.keys('BTab');
    await term.waitForScreen((s) => statusRow(s).includes('accept edits'), 'Shift+Tab still cycling the mode');
  });
});
