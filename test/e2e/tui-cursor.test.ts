import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { textWidth } from '../../components/theme/ansi.js';

// The terminal's own cursor sits at the prompt's caret (input methods open their candidate window
// there), in the built cairn, in a real terminal; it is hidden while something else has the keys.
const { start } = cairnTerminals();

const cursor = (term: TmuxTerminal): { x: number; y: number; shown: boolean } => {
  const [x, y, flag] = term.tmux('display', '-p', '#{cursor_x},#{cursor_y},#{cursor_flag}').trim().split(',');
  return { x: Number(x), y: Number(y), shown: flag === '1' };
};

/** Where the caret is expected: just after `text` on the prompt row. */
const caretAfter = (screen: string, text: string): { x: number; y: number } => {
  const lines = screen.split('\n');
  const y = lines.findIndex((l) => l.includes(`> ${text}`));
  const line = lines[y] ?? '';
  return { x: textWidth(line.slice(0, line.indexOf(`> ${text}`) + 2 + text.length)), y };
};

describe.skipIf(!TmuxTerminal.available())('the hardware cursor in a real terminal', () => {
  it('follows the caret after Chinese text (wide characters), moves with Left, and hides while a dialog has the keys', async () => {
    const { term } = await start({});
    term.type('你好世界');
    let screen = await term.waitForText('> 你好世界');
    let want = caretAfter(screen, '你好世界');
    await term.waitForScreen(() => cursor(term).shown && cursor(term).x === want.x && cursor(term).y === want.y, `the cursor at ${JSON.stringify(want)} (it is ${JSON.stringify(cursor(term))})`);
    term.keys('Left', 'Left');
    screen = await term.waitForStable();
    want = caretAfter(screen, '你好');
    await term.waitForScreen(() => cursor(term).x === want.x && cursor(term).y === want.y, `the cursor after 你好 (${JSON.stringify(cursor(term))})`);
    expect(want.x).toBe(caretAfter(screen, '你好世界').x - 4);
    term.keys('C-r');
    await term.waitForText('Search earlier prompts');
    await term.waitForScreen(() => !cursor(term).shown, 'the cursor hidden while searching');
  });
});
