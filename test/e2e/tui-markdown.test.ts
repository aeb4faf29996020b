import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 12 item 10 on a real screen: an answer streamed by a protocol-exact Anthropic stand-in,
// holding an ordered list with a nested list and a TypeScript code block.
const terminals: TmuxTerminal[] = [];
const servers: Array<ScriptedServer<AnthropicRequestBody>> = [];
afterEach(async () => {
  for (const t of terminals.splice(0)) t.kill();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ANSWER = [
  'Steps:',
  '',
  '1. open the file',
  '2. change the loop',
  '   - keep the guard',
  '   - drop the retry',
  '3. run the tests',
  '',
  '```ts',
  'const retries: number = 3; // fewer now',
  '```',
  '',
  'Done.',
].join('\n');

describe.skipIf(!TmuxTerminal.available())('markdown on screen', () => {
  it('numbers a list around its nested items as CommonMark does and colours code by language', async () => {
    const server = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: ANSWER }], { chunkSize: 7 }));
    servers.push(server);
    const ws = await tempWorkspace();
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin} --provider anthropic`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.type('how do I fix it?');
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => s.includes('Done.') && s.includes('Ask cairn'), 'the answer');
    const rows = screen.split('\n');
    const at = rows.findIndex((r) => r.includes('1. open the file'));
    expect(rows.slice(at, at + 5).map((r) => r.trimEnd())).toEqual([
      '  1. open the file',
      '  2. change the loop',
      '     ◦ keep the guard',
      '     ◦ drop the retry',
      '  3. run the tests',
    ]);
    // The same row with its colours: the keyword, the type, the number and the comment each coloured.
    const styled = term.tmux('capture-pane', '-p', '-e').split('\n').find((r) => r.includes('retries'))!;
    // (tmux re-encodes attributes, adding codes of its own between ours and the text.)
    const coloured = (sgr: string, text: string): RegExp => new RegExp(`\\x1b\\[${sgr}m(?:\\x1b\\[[0-9;]*m)*${text}(?:\\x1b\\[39m|$)`);
    expect(styled).toMatch(coloured('35', 'const'));
    expect(styled).toMatch(coloured('36', 'number'));
    expect(styled).toMatch(coloured('33', '3'));
    expect(styled).toMatch(coloured('38;5;245', '// fewer now'));
    expect(styled).toMatch(/ retries: /);
  });
});
