import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Notifications in the built cairn, in a real terminal: cairn turns focus reporting on; a turn that
// ends while the terminal last said "focus out" rings (tmux raises the window's bell flag), one that
// ends while it has focus does not. The focus reports themselves are never typed into the prompt.
const { start } = cairnTerminals();

const bellFlag = (term: TmuxTerminal): string => term.tmux('display', '-p', '#{window_bell_flag}').trim();

async function turnWithFocus(report: '\x1b[I' | '\x1b[O'): Promise<TmuxTerminal> {
  const { term } = await start({ homeFiles: { 'tui.json': JSON.stringify({ notifyAfterSeconds: 0 }) } });
  // What the terminal sends on focus in / out, once cairn asked for it (DEC 1004).
  term.tmux('send-keys', '-l', report);
  term.type('read nothing.txt');
  term.keys('Enter');
  await term.waitForScreen((s) => /read_file/.test(s) && /Ask cairn/.test(s) && !/Esc to interrupt/.test(s), 'the turn to end');
  const screen = await term.waitForStable();
  expect(screen).not.toMatch(/\[[IO]/);
  return term;
}

describe.skipIf(!TmuxTerminal.available())('notifications in a real terminal', () => {
  it('a turn ending while the terminal is unfocused rings; with focus it does not', async () => {
    const unfocused = await turnWithFocus('\x1b[O');
    await unfocused.waitForScreen(() => bellFlag(unfocused) === '1', 'the bell flag');
    const focused = await turnWithFocus('\x1b[I');
    expect(bellFlag(focused)).toBe('0');
  });
});
