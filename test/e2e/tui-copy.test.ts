import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// /copy in the built cairn, in a real terminal: tmux with set-clipboard on takes an application's
// OSC 52 into its paste buffer, so the buffer holds exactly the bytes cairn sent.
const { startAnthropic } = cairnTerminals();

const LONG = `${'A line far wider than the terminal, so the screen wraps it: '.repeat(4)}end of the long line.`;
const FIRST = 'The first answer, with **bold** text.';
const CODE_A = 'const a = 1;\nconsole.log(a);';
const CODE_B = 'echo "second block"';
const LAST = `Here it is.\n\n${LONG}\n\n\`\`\`ts\n${CODE_A}\n\`\`\`\n\nAnd a shell line:\n\n\`\`\`bash\n${CODE_B}\n\`\`\``;

const buffer = (term: TmuxTerminal): string => term.tmux('show-buffer');

async function copied(term: TmuxTerminal, command: string, expected: string): Promise<void> {
  term.tmux('set-buffer', '--', 'placeholder');
  term.type(command);
  term.keys('Enter');
  await term.waitForScreen(() => buffer(term) === expected, `the tmux buffer to hold the text of ${command}`);
}

describe.skipIf(!TmuxTerminal.available())('/copy in a real terminal', () => {
  it('OSC 52 carries exactly the answer (no wraps, gutters or styling); /copy 2; /copy code with a picker; the file fallback; mouse reporting off until Alt+M', async () => {
    const { term, ws } = await startAnthropic((_body, i) => anthropicReply([{ type: 'text', text: i === 0 ? FIRST : LAST }]), { columns: 80, rows: 40 });
    term.tmux('set', '-g', 'set-clipboard', 'on');
    // Mouse reporting is off at start: tmux sees no mouse mode in the pane.
    expect(term.tmux('display', '-p', '#{mouse_any_flag}#{mouse_sgr_flag}').trim()).toBe('00');

    term.type('first question');
    term.keys('Enter');
    await term.waitForText('first answer');
    term.type('second question');
    term.keys('Enter');
    await term.waitForText('And a shell line');

    await copied(term, '/copy', LAST);
    const screen = await term.waitForText('Copied');
    expect(screen).toMatch(/Copied \d+ characters through OSC 52/);
    // No clipboard command in this terminal (no DISPLAY): the text is in the file named too.
    expect(await readFile(join(ws.home, 'clipboard.txt'), 'utf8')).toBe(LAST);

    await copied(term, '/copy 2', FIRST);

    term.type('/copy code');
    term.keys('Enter');
    await term.waitForText('Copy a code block');
    await term.waitForScreen((s) => /› ts .*const a = 1;/.test(s) && /bash .*echo "second block"/.test(s), 'both blocks listed');
    term.tmux('set-buffer', '--', 'placeholder');
    term.keys('Down');
    await term.waitForScreen((s) => /› bash/.test(s), 'the second block selected');
    term.keys('Enter');
    await term.waitForScreen(() => buffer(term) === CODE_B, 'the bash block in the buffer');
    await term.waitForScreen((s) => !s.includes('Copy a code block'), 'the picker closed');

    term.type('/copy 9');
    term.keys('Enter');
    await term.waitForText('There are 2 answers');

    // Alt+M turns wheel reporting on (and says Shift selects); again turns it off.
    term.keys('M-m');
    await term.waitForText('Mouse wheel scrolling on');
    expect(term.tmux('display', '-p', '#{mouse_any_flag}#{mouse_sgr_flag}').trim()).toBe('11');
    term.keys('M-m');
    await term.waitForScreen(() => term.tmux('display', '-p', '#{mouse_any_flag}').trim() === '0', 'mouse reporting off again');
    // The choice is saved as it is made; the terminal shows it before the write lands.
    await expect.poll(async () => JSON.parse(await readFile(join(ws.home, 'tui.json'), 'utf8')) as unknown, { timeout: 5_000 }).toMatchObject({ mouse: false });

    term.type('/help');
    term.keys('Enter');
    await term.waitForText('Shift-drag selects');
  });
});
