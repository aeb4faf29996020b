import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFifo, releaseFifo } from '../helpers/fifo.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 12 item 8: a running command's card shows its output line by line, wrapped between words,
// and the same rows once it has finished.
const terminals: TmuxTerminal[] = [];
const gates: string[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
  for (const g of gates.splice(0)) releaseFifo(g);
});

const LONG = 'a long line of words that has to wrap between words and never inside a word while shown live';
const SCRIPT = `printf 'line 1 of output\\nline 2 of output\\n'
printf '%s\\n' '${LONG}'
read go < gate
printf 'line 3 of output\\n'
`;

/** The card's output rows: from the first output line to the last row of `lastText`. */
function outputRows(screen: string, lastText: string): string[] {
  const rows = screen.split('\n').map((r) => r.replace(/^[│┃⎿ ]+/, '').trimEnd());
  const start = rows.findIndex((r) => r.startsWith('line 1 of output'));
  const end = rows.findIndex((r, i) => i >= start && r.endsWith(lastText));
  return start < 0 || end < 0 ? [] : rows.slice(start, end + 1);
}

describe.skipIf(!TmuxTerminal.available())('live bash output', () => {
  it('keeps its lines while the command runs, wraps between words, and matches the finished card', async () => {
    const ws = await tempWorkspace({ 'slow.sh': SCRIPT });
    const gate = path.join(ws.dir, 'gate');
    makeFifo(gate);
    gates.push(gate);
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, columns: 60, rows: 30 });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin} --permission-mode bypassPermissions`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.type('run bash slow.sh');
    term.keys('Enter');

    const live = await term.waitForScreen((s) => s.includes('shown live'), 'the live output');
    const liveRows = outputRows(live, 'shown live');
    expect(liveRows.slice(0, 2)).toEqual(['line 1 of output', 'line 2 of output']);
    // The long line is on rows of its own, each break between two words of it.
    const wrapped = liveRows.slice(2);
    expect(wrapped.length).toBeGreaterThan(1);
    expect(wrapped.join(' ')).toBe(LONG);

    await fs.writeFile(gate, 'go\n');
    const done = await term.waitForScreen((s) => s.includes('line 3 of output') && s.includes('Ask cairn') && !s.includes('interrupt'), 'the finished card');
    expect(outputRows(done, 'line 3 of output')).toEqual([...liveRows, 'line 3 of output']);
  });
});
