import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 12 item 9: notices wrap at word boundaries in a narrow terminal.
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
  it('notices break between words', async () => {
    const ws = await tempWorkspace();
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, columns: 60, rows: 40 });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    let screen = await term.waitForText('No provider configured');
    expect(wordsWhole(screen, 'No provider configured: using the offline scripted model. Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or see cairn --list-providers.')).toEqual([]);

    // A long warning: "/cron bogus" answers with the usage of every subcommand.
    term.type('/cron bogus');
    term.keys('Enter');
    await term.waitForText('Unknown /cron subcommand');
    screen = await term.waitForStable();
    expect(wordsWhole(screen, 'Unknown /cron subcommand "bogus". Usage: /cron, /cron delete <id>, /cron clear [durable], /cron test <prompt>')).toEqual([]);
    for (const row of screen.split('\n')) expect([...row].length).toBeLessThanOrEqual(60);
  });
});
