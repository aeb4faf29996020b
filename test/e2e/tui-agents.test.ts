import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Subagents in the built cairn, in a real terminal (tmux), on the offline model slowed down
// enough (CAIRN_OFFLINE_DELAY_MS) that both children are visibly at work at the same time.

const { start } = cairnTerminals();
const startCairn = (files: Record<string, string>, delayMs: number) =>
  start({ files, env: { CAIRN_OFFLINE_DELAY_MS: String(delayMs) }, columns: 120, rows: 45 });

const files = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'alpha\nbeta\n' };
const lineWith = (screen: string, re: RegExp): number => screen.split('\n').findIndex((l) => re.test(l));
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describe.skipIf(!TmuxTerminal.available())('subagents in a real terminal', () => {
  it('two subagent cards run at once, each with its nested read_file card', async () => {
    const { term } = await startCairn(files, 80);
    term.type('use two subagents to read a.txt and b.txt');
    term.keys('Enter');
    const both = await term.waitForScreen((s) => {
      const a = lineWith(s, /agent explore: read a\.txt/);
      const b = lineWith(s, /agent explore: read b\.txt/);
      return a >= 0 && b >= 0 && SPINNER.test(s.split('\n')[a]!) && SPINNER.test(s.split('\n')[b]!) && /^┃ {3}\S read_file a\.txt/m.test(s) && /^┃ {3}\S read_file b\.txt/m.test(s);
    }, 'both subagents running with their nested reads');
    expect(both).toContain('2 tools running together');
    const rows = both.split('\n');
    const a = lineWith(both, /agent explore: read a\.txt/);
    const b = lineWith(both, /agent explore: read b\.txt/);
    const readA = lineWith(both, /^┃ {3}\S read_file a\.txt/);
    const readB = lineWith(both, /^┃ {3}\S read_file b\.txt/);
    expect([a < readA, readA < b, b < readB]).toEqual([true, true, true]);
    // Nested cards are indented inside the parallel group's gutter.
    expect(readA).toBeGreaterThan(0);
    expect(rows[a + 1]).toMatch(/⎿ explore · turn \d · [\d.k]+ tokens/);

    const done = await term.waitForScreen((s) => /2 tools ran together/.test(s) && /Ask cairn/.test(s), 'the answer');
    expect(done).toMatch(/✓ agent explore: read a\.txt\s+\d turns? · [\d.k]+ tokens/);
    expect(done).toMatch(/explore subagent \(read b\.txt\) reported/);
  });

  it('a subagent asks inline, labelled with its name; y lets it write', async () => {
    const { term, ws } = await startCairn({}, 5);
    term.type('use a subagent to write hi to x.txt');
    term.keys('Enter');
    const screen = await term.waitForText('Allow write_file? (agent: general subagent)');
    expect(lineWith(screen, /agent general: write hi to x\.txt/)).toBeLessThan(lineWith(screen, /Allow write_file\?/));
    await term.pauseBeforeAnswering();
    term.keys('y');
    await term.waitForScreen((s) => /✓ agent general/.test(s) && /Ask cairn/.test(s), 'the subagent done');
    expect(await fs.readFile(path.join(ws.dir, 'x.txt'), 'utf8')).toBe('hi\n');
  });

  it('Esc interrupts the subagents too', async () => {
    const { term } = await startCairn(files, 400);
    term.type('use two subagents to read a.txt and b.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => /agent explore: read b\.txt/.test(s) && /explore · turn 1/.test(s), 'the subagents started');
    term.keys('Escape');
    const screen = await term.waitForText('Interrupted');
    expect(screen).toMatch(/■ agent explore: read a\.txt/);
    expect(screen).toMatch(/■ agent explore: read b\.txt/);
  });
});
