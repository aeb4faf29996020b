import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Selecting cards in the built cairn, in a real terminal, on the offline model.
const { start } = cairnTerminals();

/** The card header drawn selected (its tool name in inverse video) on the screen now. */
function selectedCard(styled: string): string | undefined {
  const m = /\x1b\[7m ([a-z_]+) (?:\x1b\[[\d;]*m)+([^\x1b]*)/.exec(styled);
  return m ? `${m[1]} ${m[2]!.trim()}` : undefined;
}

describe.skipIf(!TmuxTerminal.available())('card selection in a real terminal', () => {
  it('Tab selects the newest card in view, not an old one scrolled away; moving the selection scrolls the card into view', async () => {
    const { term } = await start({ files: { 'a.txt': 'alpha\n' }, columns: 100, rows: 30 });

    term.type('read a.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('✓ read_file a.txt') && s.includes('Done.') && s.includes('Ask cairn'), 'the read done');
    term.keys('Tab');
    await term.waitForScreen(() => selectedCard(term.styledScreen()) === 'read_file a.txt', 'the read card selected');
    term.keys('Escape');
    await term.waitForScreen(() => selectedCard(term.styledScreen()) === undefined, 'back to the prompt');
    await term.waitForText('Ask cairn');

    // Newer output pushes the read card off the screen; a newer card arrives.
    term.type('stream 400 at 2000/s');
    term.keys('Enter');
    await term.waitForText('› stream 400');
    await term.waitForText('Ask cairn');
    term.type('list');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('✓ list_dir .') && s.includes('Ask cairn'), 'the list done');
    expect(term.screen()).not.toContain('read_file a.txt');

    term.keys('Tab');
    await term.waitForScreen(() => selectedCard(term.styledScreen()) === 'list_dir .', 'the newest card selected');

    // Up to the read card: it comes into view, selected.
    term.keys('Up');
    await term.waitForScreen(() => selectedCard(term.styledScreen()) === 'read_file a.txt', 'the read card scrolled into view');
  });
});
