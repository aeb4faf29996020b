import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// What the terminal keeps after cairn exits: the conversation as plain, soft-wrapped text on the
// normal screen (in its scrollback), then the resume line.
const { startAnthropic } = cairnTerminals();

const LONG = `${'Every word of this answer stays in the scrollback, '.repeat(5)}the last words.`;
const reply = (i: number): string => (i === 0 ? 'The first answer.' : `Second answer, **styled**.\n\n${LONG}`);

/** The whole pane history with wrapped lines joined (-J): a soft-wrapped line comes back whole. */
const history = (term: TmuxTerminal): string => term.tmux('capture-pane', '-p', '-J', '-S', '-');

async function converse(term: TmuxTerminal): Promise<void> {
  term.type('first question');
  term.keys('Enter');
  await term.waitForText('The first answer.');
  term.type('second question');
  term.keys('Enter');
  await term.waitForText('the last words.');
  term.type('/exit');
  term.keys('Enter');
  await term.waitForScreen((s) => /Resume this session with/.test(s) && /^shell\$\s*$/m.test(s), 'the shell prompt after /exit');
}

describe.skipIf(!TmuxTerminal.available())('scrollback on exit in a real terminal', () => {
  it('full (the default): the conversation, as plain soft-wrapped text, then the resume line', async () => {
    const { term } = await startAnthropic((_b, i) => anthropicReply([{ type: 'text', text: reply(i) }]), { columns: 60, rows: 20 });
    await converse(term);
    expect(term.alternateOn()).toBe(false);
    const text = history(term);
    const after = text.slice(text.lastIndexOf('node '));
    expect(after).toContain('> first question\n\nThe first answer.\n\n> second question\n\nSecond answer, **styled**.');
    // Wider than the terminal, yet one line once joined: no hard breaks inside it.
    expect(after).toContain(`\n${LONG}\n`);
    expect(after.indexOf('the last words.')).toBeLessThan(after.indexOf('Resume this session with: cairn --resume'));
    // Plain: no gutters, boxes or status row.
    expect(after).not.toMatch(/[│╭╰⏵]/);
    expect(term.tmux('capture-pane', '-p', '-e', '-S', '-')).not.toMatch(/\x1b\[[0-9;]*m(?:Second|first|The first)/);
  });

  it('last-answer keeps only the last answer; none keeps nothing but the resume line', async () => {
    for (const [mode, expectFirst, expectLast] of [['last-answer', false, true], ['none', false, false]] as const) {
      const { term } = await startAnthropic((_b, i) => anthropicReply([{ type: 'text', text: reply(i) }]), {
        columns: 60,
        rows: 20,
        homeFiles: { 'tui.json': JSON.stringify({ scrollback: mode }) },
      });
      await converse(term);
      const text = history(term);
      const after = text.slice(text.lastIndexOf('node '));
      expect(after.includes('first question'), mode).toBe(expectFirst);
      expect(after.includes('The first answer.'), mode).toBe(false);
      expect(after.includes(LONG), mode).toBe(expectLast);
      expect(after).toContain('Resume this session with');
    }
  });
});
