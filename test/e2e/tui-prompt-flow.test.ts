import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 30 items 8 and 11, in the built cairn in a real terminal (tmux), on the offline model:
// `!` commands show their output and wait behind a running turn; the `/` palette opens again
// after Esc; a notice arriving mid-answer does not cut the answer.
const { start } = cairnTerminals();

/** The rows between the transcript's end and the prompt box's top border. */
function rowsAbovePrompt(screen: string, count: number): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((l) => l.startsWith('╭'));
  return lines.slice(Math.max(0, top - count), top).filter((l) => l.trim() !== '');
}

describe.skipIf(!TmuxTerminal.available())('the prompt in a real terminal', () => {
  it('!cmd shows its output inline, as Claude Code does, not a collapsed card', async () => {
    const { term } = await start();
    term.type('!echo inline-$((6*7)); echo second-line');
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => /! echo inline/.test(s) && s.includes('second-line') && s.includes('Ask cairn'), 'the command and its output');
    expect(screen).toContain('inline-42');
  });

  it('a ! command typed while a turn runs is queued, then runs when the turn ends', async () => {
    const { term } = await start();
    term.type('stream 300 at 100/s');
    term.keys('Enter');
    await term.waitForText('interrupt');
    term.type('!echo queued-$((6*7))');
    term.keys('Enter');
    // Waiting among the queued prompts, not run and not refused.
    const waiting = await term.waitForText('!echo queued-$((6*7))');
    expect(waiting).not.toContain('queued-42');
    expect(waiting).not.toMatch(/A turn is running/);
    const done = await term.waitForScreen((s) => s.includes('queued-42') && s.includes('Ask cairn'), 'the queued command run after the turn', 30_000);
    expect(done).not.toMatch(/A turn is running/);
  });

  it('after Esc closes the / palette, typing / again opens it again', async () => {
    const { term } = await start();
    term.type('/');
    await term.waitForScreen((s) => /\/help\b/.test(s), 'the palette');
    term.keys('Escape');
    await term.waitForScreen((s) => !/\/help\b/.test(s), 'the palette closed');
    term.keys('BSpace');
    await term.waitForText('Ask cairn');
    term.type('/');
    await term.waitForScreen((s) => /\/help\b/.test(s), 'the palette open again');
    // And it still works: Enter on /help runs it.
    term.type('hel');
    term.keys('Enter');
    await term.waitForText('redraw the screen');
  });

  it('a notice arriving mid-answer stays below the answer, which is not cut at it', async () => {
    const { term } = await start();
    term.type('stream 150 at 50/s');
    term.keys('Enter');
    // The answer has begun (its first paragraph is on screen) and goes on.
    await term.waitForText('Splits blocks');
    // A warning printed by a command while the answer streams.
    term.type('/mode nonsense');
    term.keys('Enter');
    await term.waitForText('Choose one of');
    const done = await term.waitForScreen((s) => s.includes('Ask cairn') && !s.includes('interrupt'), 'the answer ended', 30_000);
    // The notice is the last thing in the transcript: the whole answer came before it.
    expect(rowsAbovePrompt(done, 3).join('\n')).toMatch(/Choose one of/);
  });
});
