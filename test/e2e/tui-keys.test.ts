import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Keys in the built cairn, in a real terminal: tmux sends the keys of one send-keys call together.

const { start } = cairnTerminals();
const startCairn = (columns = 120, rows = 40) => start({ columns, rows });

const promptLine = (screen: string): string => screen.split('\n').find((l) => l.startsWith('│ >')) ?? '';
const promptIs = (text: string) => (screen: string) => promptLine(screen).replace(/[│\s]+$/, '') === `│ > ${text}`;

describe.skipIf(!TmuxTerminal.available())('keys in a real terminal', () => {
  it('keys sent together are each applied in order: BSpace x3, C-e C-u', async () => {
    const { term } = await startCairn();
    term.type('hello world');
    await term.waitForScreen(promptIs('hello world'), 'the typed text');
    term.keys('BSpace', 'BSpace', 'BSpace');
    await term.waitForScreen(promptIs('hello wo'), 'three characters deleted');
    term.keys('C-a');
    term.keys('C-e', 'C-u');
    await term.waitForText('Ask cairn');
  });

  it('Delete deletes forward', async () => {
    const { term } = await startCairn();
    term.type('abcd');
    await term.waitForScreen(promptIs('abcd'), 'the typed text');
    term.keys('Left', 'Left', 'DC');
    await term.waitForScreen(promptIs('abd'), 'c deleted, not b');
    expect(promptLine(term.screen())).not.toContain('acd');
  });
});
