import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATUS_LINE_MIN_MS } from '../../components/app/status-line.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Claude Code's statusLine setting in the built cairn, in a real terminal: the command gets the
// session JSON on stdin, its first line replaces the status row, and it runs at most every 300 ms.
const { start } = cairnTerminals();

const SCRIPT = `#!/bin/sh
date +%s%3N >> "$(dirname "$0")/runs.txt"
node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log("MYSTATUS "+j.model.id+" mode="+j.permission_mode+" window="+j.context_window.context_window_size+" cwd-ok="+(j.cwd===process.cwd()))})'
`;

describe.skipIf(!TmuxTerminal.available())('statusLine in a real terminal', () => {
  it("shows the command's line with the session's data, refreshed after a mode change, at most every 300 ms", async () => {
    const { term, ws } = await start({
      prepare: async ({ home }) => {
        await writeFile(join(home, 'status.sh'), SCRIPT, { mode: 0o755 });
        await writeFile(join(home, 'settings.json'), JSON.stringify({ statusLine: { type: 'command', command: join(home, 'status.sh') } }));
      },
    });
    await term.waitForText('MYSTATUS offline mode=default window=200000 cwd-ok=true');
    term.keys('BTab');
    await term.waitForText('MYSTATUS offline mode=acceptEdits');
    term.type('stream 300');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('MYSTATUS') && !s.includes('Esc to interrupt') && s.includes('Ask cairn'), 'the turn over');
    const runsFile = join(ws.home, 'runs.txt');
    const count = (): number => readFileSync(runsFile, 'utf8').trim().split('\n').length;
    // Start, the mode change, and the turn's messages.
    await term.waitForScreen(() => count() >= 3, 'a run after the turn');
    const runs = (await readFile(runsFile, 'utf8')).trim().split('\n').map(Number);
    // The stamps are taken when each script starts, which a loaded machine delays by varying amounts (a clean-clone
    // CI run saw 279 ms between two runs cairn spaced 300 ms apart). What must not happen is a run per frame or per
    // event (tens of ms apart): half the spacing tells the two apart without timing the machine.
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(STATUS_LINE_MIN_MS / 2);
  });
});
