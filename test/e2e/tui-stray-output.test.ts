import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 12 item 1: what libraries print while the app owns the screen. The built cairn in tmux
// talks to a protocol-exact Anthropic stand-in with a model the SDK calls deprecated (its
// console.warn on every request), and a preloaded "library" that emits a process warning and
// writes to stdout around every HTTP request.
const terminals: TmuxTerminal[] = [];
const servers: Array<ScriptedServer<AnthropicRequestBody>> = [];
afterEach(async () => {
  for (const t of terminals.splice(0)) t.kill();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

// Around every HTTP request, whichever way it is made (the providers use node:http).
const NOISY_LIBRARY = `
import http from 'node:http';
const noisy = () => {
  process.emitWarning('noisylib: callback API is deprecated', 'DeprecationWarning');
  process.stdout.write('STRAY-STDOUT-FROM-A-LIBRARY\\n');
};
const realRequest = http.request;
http.request = (...args) => {
  noisy();
  return realRequest(...args);
};
const realFetch = globalThis.fetch;
globalThis.fetch = (...args) => {
  noisy();
  return realFetch(...args);
};
`;

const count = (text: string, part: string): number => text.split(part).length - 1;

describe.skipIf(!TmuxTerminal.available())('output from libraries while full-screen', () => {
  it('goes to the log and shows once as a notice; the frame stays whole; Ctrl+L redraws what another program wrote over', async () => {
    let n = 0;
    const server = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: `answer number ${++n}` }]));
    servers.push(server);
    const ws = await tempWorkspace({ 'noisy.mjs': NOISY_LIBRARY });
    const term = TmuxTerminal.start({
      cwd: ws.dir,
      env: { CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url },
    });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node --import ./noisy.mjs ${cairnBin} --provider anthropic --model claude-sonnet-4-5`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');

    for (const prompt of ['first question', 'second question']) {
      term.type(prompt);
      term.keys('Enter');
      await term.waitForScreen((s) => s.includes(`answer number ${prompt === 'first question' ? 1 : 2}`) && s.includes('Ask cairn'), 'the answer');
    }
    const screen = await term.waitForStable();
    const lines = screen.split('\n');
    // Nothing was written into the frame: the stray line is only inside its notice.
    expect(count(screen, 'STRAY-STDOUT')).toBe(1);
    expect(screen).toMatch(/⚠ stdout \(kept off the screen[^\n]*\n {2}STRAY-STDOUT-FROM-A-LIBRARY\n/);
    // The prompt box and the status row are in place.
    expect(lines.findIndex((l) => l.startsWith('│ > Ask cairn'))).toBeGreaterThan(0);
    expect(lines.some((l) => l.startsWith('⏵ default'))).toBe(true);
    expect(screen).toMatch(/› first question[\s\S]*answer number 1[\s\S]*› second question[\s\S]*answer number 2/);
    // Each distinct piece once, however many requests printed it.
    expect(count(screen, "console.warn (kept off the screen")).toBe(1);
    expect(count(screen, "The model 'claude-sonnet-4-5' is deprecated")).toBe(1);
    expect(count(screen, 'warning (kept off the screen')).toBe(1);
    expect(count(screen, 'DeprecationWarning: noisylib: callback API is deprecated')).toBe(1);
    expect(count(screen, 'stdout (kept off the screen')).toBe(1);

    const logs = await fs.readdir(path.join(ws.home, 'logs'));
    const log = await fs.readFile(path.join(ws.home, 'logs', logs.find((f) => f.startsWith('tui-'))!), 'utf8');
    expect(count(log, "console.warn: The model 'claude-sonnet-4-5' is deprecated")).toBe(2);
    expect(count(log, 'warning: DeprecationWarning: noisylib')).toBe(2);
    expect(count(log, 'stdout: STRAY-STDOUT-FROM-A-LIBRARY')).toBe(2);

    // Another program writes over the screen; Ctrl+L puts the frame back exactly.
    const tty = term.tmux('display', '-p', '#{pane_tty}').trim();
    execFileSync('sh', ['-c', `printf '\\033[5;1HGARBAGE FROM ANOTHER PROGRAM\\033[2;1H\\033[2K' > ${tty}`]);
    await term.waitForScreen((s) => s.includes('GARBAGE FROM ANOTHER PROGRAM'), 'the garbage on screen');
    term.keys('C-l');
    await term.waitForScreen((s) => s === screen, 'the frame redrawn as it was');
  });
});
