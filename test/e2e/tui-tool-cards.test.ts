import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { holdsFor } from '../helpers/wait-for.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Tool cards in the built cairn, in a real terminal: a card's timer is the tool's time, and an
// approval sits under the card that asks even when the provider reuses tool ids.
const { start, startAnthropic } = cairnTerminals();
const startCairn = (args: string, env: Record<string, string> = {}) => start({ args, env, files: { 'a.txt': 'one\n' } });

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const ms = (amount: string, unit: string): number => Number(amount) * (unit === 's' ? 1000 : 1);

describe.skipIf(!TmuxTerminal.available())('tool cards in a real terminal', () => {
  it('the time spent waiting for approval is not the tool\'s: the timer starts when the answer is given', async () => {
    // --no-sandbox: this is about the approval itself; with the sandbox on, a workspace command runs without one.
    const { term } = await startCairn('--no-sandbox');
    term.type('run sleep 3 && touch made.txt');
    term.keys('Enter');
    await term.waitForText('Allow bash?');
    // The person reads the command for three seconds: that wait is what is under test, and
    // throughout it the waiting card shows no timer.
    const waitingLine = () => term.screen().split('\n').find((l) => /bash sleep 3 && touch/.test(l)) ?? '';
    await holdsFor(() => !/\d(ms|s)\s*$/.test(waitingLine()), 3000, { interval: 250, message: 'the waiting card showed a timer' });
    const waiting = waitingLine();
    expect(waiting).not.toMatch(/\d(ms|s)\s*$/);
    await term.pauseBeforeAnswering();
    term.keys('y');
    const running = await term.waitForScreen((s) => s.split('\n').some((l) => SPINNER.test(l) && /bash sleep 3 && touch\b.*\d(ms|s)\s*$/.test(l)), 'the running card with its timer');
    const line = running.split('\n').find((l) => SPINNER.test(l) && /bash sleep 3 && touch/.test(l))!;
    const [, amount, unit] = /(\d+(?:\.\d+)?)(ms|s)\s*$/.exec(line.trim())!;
    expect(ms(amount!, unit!)).toBeLessThan(2000);
    // The finished card's duration is the command's own, about three seconds, not six.
    const finished = /✓ bash sleep 3 && touch\b.*?(\d+\.\d)s\s*$/m;
    const done = await term.waitForScreen((s) => finished.test(s), 'the finished card');
    const seconds = Number(finished.exec(done)![1]);
    expect(seconds).toBeGreaterThanOrEqual(2.9);
    expect(seconds).toBeLessThan(5);
  });

  it('a provider that reuses a tool id: the approval sits under the new card, not inside the old one', async () => {
    const { term, ws } = await startAnthropic(
      (_body, index) => {
        if (index === 0) return anthropicReply([{ type: 'tool_use', id: 'call_0', name: 'read_file', input: { path: 'a.txt' } }]);
        if (index === 1) return anthropicReply([{ type: 'tool_use', id: 'call_0', name: 'write_file', input: { path: 'c.txt', content: 'hello\n' } }]);
        return anthropicReply([{ type: 'text', text: 'Read a.txt and wrote c.txt.' }]);
      },
      { files: { 'a.txt': 'one\n' } },
    );
    term.type('read a.txt then write c.txt');
    term.keys('Enter');
    const screen = await term.waitForText('Allow write_file?');
    const rows = screen.split('\n');
    const read = rows.findIndex((l) => /read_file a\.txt/.test(l));
    const write = rows.findIndex((l) => /write_file c\.txt/.test(l));
    const ask = rows.findIndex((l) => l.includes('Allow write_file?'));
    expect(read).toBeGreaterThanOrEqual(0);
    expect(write).toBeGreaterThan(read);
    expect(ask).toBeGreaterThan(write);
    await term.pauseBeforeAnswering();
    term.keys('y');
    await term.waitForText('Read a.txt and wrote c.txt.');
    expect(await fs.readFile(path.join(ws.dir, 'c.txt'), 'utf8')).toBe('hello\n');
    const final = term.screen();
    expect(final).toMatch(/✓ read_file a\.txt/);
    expect(final).toMatch(/✓ write_file c\.txt/);
  });
});
