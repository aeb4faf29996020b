import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionNames } from '../../src/session/session-names.js';
import { cairnBin } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The REPL commands of the design documents, in the built cairn in a real terminal on the offline
// model: /sections, /usage reset, /clear hard, /save and /load (and cairn --resume NAME).
const { start } = cairnTerminals();
const files = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'bee\n' };

/** Types a command line and presses Enter. */
function run(term: TmuxTerminal, line: string): void {
  term.type(line);
  term.keys('Enter');
}

describe.skipIf(!TmuxTerminal.available())('REPL commands in a real terminal', () => {
  it('/sections lists the system prompt’s sections with sizes and sources; /sections <name> prints one', async () => {
    const { term } = await start({ files: { ...files, 'AGENTS.md': 'Always answer in haiku.\n' }, columns: 140, rows: 40 });
    run(term, '/sections');
    const listed = await term.waitForText('Print one with /sections <name>');
    expect(listed).toMatch(/System prompt sections \(\d+, [\d,]+ chars in all\):/);
    expect(listed).toMatch(/static +[\d,]+ chars +~[\d.k]+ tokens +cairn's built-in instructions/);
    expect(listed).toMatch(/environment +[\d,]+ chars +~[\d.k]+ tokens +made at start: workspace/);
    expect(listed).toMatch(/AGENTS\.md +[\d,]+ chars +~[\d.k]+ tokens +AGENTS\.md/);
    run(term, '/sections agents.md');
    const one = await term.waitForText('Always answer in haiku.');
    expect(one).toMatch(/Section AGENTS\.md \(\d+ chars, ~\d+ tokens; from AGENTS\.md\):/);
    run(term, '/sections nothing-like-this');
    await term.waitForText('No section "nothing-like-this": static, environment');
  });

  it('/usage reset starts the counters again and says what they had', async () => {
    const { term } = await start({ files, columns: 120, rows: 40 });
    run(term, 'read a.txt');
    await term.waitForScreen((s) => s.includes('Read a.txt: 3 lines') && s.includes('Ask cairn'), 'the answer');
    run(term, '/usage');
    const before = await term.waitForText('model call');
    expect(before).toMatch(/Session: [1-9][\d.k]* input, [1-9][\d.k]* output tokens\./);
    run(term, '/usage reset');
    await term.waitForScreen((s) => /Usage counters reset \(they had [1-9]\d* model calls?, [1-9]\d* tokens\)/.test(s), 'the reset');
    run(term, '/usage');
    await term.waitForScreen((s) => /Session: 0 input, 0 output tokens\./.test(s) && /· 0 model calls\./.test(s), 'the counters at zero');
  });

  it('/clear keeps the approvals remembered for this session; /clear hard forgets them (and a command asks again)', async () => {
    // --no-sandbox: this is about the approval itself; with the sandbox on, a workspace command runs without one.
    const { term, ws } = await start({ files, args: '--no-sandbox', columns: 120, rows: 40 });
    run(term, 'run touch one.txt');
    await term.waitForText('Allow bash?');
    await term.pauseBeforeAnswering();
    term.keys('a');
    await term.waitForScreen((s) => !s.includes('Allow bash?') && /✓ bash/.test(s) && s.includes('Ask cairn'), 'the command to run');
    await fs.rm(path.join(ws.dir, 'one.txt'));

    run(term, '/clear');
    await term.waitForText('Started a new conversation.');
    run(term, 'run touch one.txt');
    await term.waitForScreen((s) => /✓ bash/.test(s) && s.includes('Ask cairn'), 'the command, run without asking');
    expect(term.screen()).not.toContain('Allow bash?');
    await fs.access(path.join(ws.dir, 'one.txt'));
    await fs.rm(path.join(ws.dir, 'one.txt'));

    run(term, '/clear hard');
    await term.waitForText('forgot 1 approval remembered for this session and the todo list');
    run(term, 'run touch one.txt');
    await term.waitForText('Allow bash?');
    await expect(fs.access(path.join(ws.dir, 'one.txt'))).rejects.toThrow();
    term.keys('Escape');
    await term.waitForText('Denied: the user interrupted');
  });

  it('with approvalTimeoutSeconds.tui in config.json, an approval nobody answers is answered no with a message', async () => {
    // --no-sandbox: this is about the approval itself; with the sandbox on, a workspace command runs without one.
    const { term, ws } = await start({ files, args: '--no-sandbox', columns: 120, rows: 40, homeFiles: { 'config.json': JSON.stringify({ approvalTimeoutSeconds: { tui: 2 } }) } });
    run(term, 'run touch late.txt');
    await term.waitForText('Allow bash?');
    const screen = await term.waitForScreen((s) => s.includes('No answer to bash within 2 s: answered no.') && !s.includes('Allow bash?'), 'the approval answered no');
    expect(screen).toContain('approvalTimeoutSeconds in config.json sets it');
    await expect(fs.access(path.join(ws.dir, 'late.txt'))).rejects.toThrow();
  });

  it('/save names the session; cairn --resume NAME and /load NAME open it; /load n picks a row of /sessions', async () => {
    const { term, ws } = await start({ files, columns: 120, rows: 40 });
    run(term, 'read a.txt');
    await term.waitForScreen((s) => s.includes('Read a.txt: 3 lines') && s.includes('Ask cairn'), 'the answer');
    run(term, '/save bad name');
    await term.waitForText('Not saved: "bad name" is not a session name');
    run(term, '/save alpha');
    await term.waitForText('Named this session "alpha". Open it later with /load alpha or cairn --resume alpha.');
    const names = await readSessionNames(ws.home, ws.dir);
    const alphaId = names.get('alpha');
    expect(alphaId).toMatch(/^[0-9a-f-]{36}$/);
    run(term, '/save');
    await term.waitForText(`This session (${alphaId}) is saved as it goes and named "alpha".`);
    term.keys('C-d');
    await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt');

    run(term, `node ${cairnBin} --resume alpha`);
    await term.waitForScreen((s) => s.includes('Resumed session') && /› read a\.txt/.test(s) && s.includes('Ask cairn'), 'alpha resumed by name');
    term.keys('C-d');
    await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt again');

    run(term, `clear; node ${cairnBin}`);
    await term.waitForText('Ask cairn');
    run(term, 'read b.txt');
    await term.waitForScreen((s) => s.includes('Read b.txt: 1 line') && s.includes('Ask cairn'), 'the second session’s answer');
    run(term, '/sessions');
    const listed = await term.waitForText('/load <name or number>');
    expect(listed).toMatch(/ 1 {2}[0-9a-f]{8} .*read b\.txt {2}\(this session\)/);
    expect(listed).toMatch(/ 2 {2}[0-9a-f]{8} .*\[alpha\] read a\.txt/);
    run(term, '/load nosuch');
    await term.waitForText('No session nosuch in this workspace');
    run(term, '/load alpha');
    await term.waitForScreen((s) => s.includes('Resumed session') && /› read a\.txt/.test(s) && !/› read b\.txt/.test(s), 'alpha opened with /load');

    // Newest first: the b.txt session is still row 1 (alpha, now on screen, has not changed since).
    run(term, '/load 1');
    await term.waitForScreen((s) => s.includes('Resumed session') && /› read b\.txt/.test(s) && !/› read a\.txt/.test(s), 'the other session opened by its number');
    run(term, '/load 9');
    await term.waitForText('There is no session 9: /sessions lists 2.');
  }, 120_000);
});
