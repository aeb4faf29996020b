import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 12 item 9: notices, /help and lists wrap at word boundaries in a narrow terminal.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

/** Every word of `text` appears whole on some row of the screen. */
function wordsWhole(screen: string, text: string): string[] {
  const rows = screen.split('\n').map((r) => r.replace(/[│┃]/g, ' '));
  return text.split(/\s+/).filter((w) => w !== '' && !rows.some((r) => r.split(/\s+/).includes(w)));
}

describe.skipIf(!TmuxTerminal.available())('wrapping in a narrow terminal', () => {
  it('the start-up notice and /help break between words', async () => {
    const ws = await tempWorkspace();
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, columns: 60, rows: 40 });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    let screen = await term.waitForText('Ask cairn');
    screen = await term.waitForText('No provider configured');
    expect(wordsWhole(screen, 'No provider configured: using the offline scripted model. Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or see cairn --list-providers.')).toEqual([]);

    term.type('/help');
    term.keys('Enter');
    await term.waitForText('Teammates:');
    screen = await term.waitForStable();
    expect(wordsWhole(screen, 'Teammates: list, spawn <name> <type> <instructions>, stop <name>')).toEqual([]);
    for (const row of screen.split('\n')) expect([...row].length).toBeLessThanOrEqual(60);
  });
});
