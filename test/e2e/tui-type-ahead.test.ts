import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// A prompt typed and Entered while cairn starts, in a real terminal: keys typed before the app's
// raw mode is on reach it from the terminal's line buffer, with Enter turned into a newline.

const terminals: TmuxTerminal[] = [];
const servers: ScriptedServer<AnthropicRequestBody>[] = [];
afterEach(async () => {
  for (const t of terminals.splice(0)) t.kill();
  for (const s of servers.splice(0)) await s.close();
});

/** The texts of the user's prompts in a request (tool results and reminders left out). */
const promptTexts = (body: AnthropicRequestBody): string[] =>
  body.messages.filter((m) => m.role === 'user').flatMap((m) => m.content.filter((b) => b['type'] === 'text').map((b) => String(b['text'])));

const promptRow = (screen: string): string => screen.split('\n').find((l) => l.startsWith('│ >')) ?? '';

async function launch(): Promise<{ term: TmuxTerminal; server: ScriptedServer<AnthropicRequestBody> }> {
  const server = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'General Kenobi.' }]));
  servers.push(server);
  const ws = await tempWorkspace();
  const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url } });
  terminals.push(term);
  await term.waitForText('shell$');
  term.type(`node ${cairnBin} --provider anthropic`);
  return { term, server };
}

async function expectSentOnce(term: TmuxTerminal, server: ScriptedServer<AnthropicRequestBody>): Promise<void> {
  const screen = await term.waitForScreen((s) => s.includes('General Kenobi.') && s.includes('Ask cairn'), 'the answer and an empty prompt box');
  expect(promptRow(screen)).toMatch(/^│ > Ask cairn/);
  expect(server.requests).toHaveLength(1);
  expect(promptTexts(server.requests[0]!.body).some((t) => t.includes('hello there'))).toBe(true);
  expect(promptTexts(server.requests[0]!.body).some((t) => /hello there\s/.test(t))).toBe(false);
}

describe.skipIf(!TmuxTerminal.available())('a prompt typed while cairn starts', () => {
  it('typed and Entered right at launch (the terminal still in line mode): sent once, the box empty', async () => {
    const { term, server } = await launch();
    term.keys('Enter');
    term.type('hello there');
    term.keys('Enter');
    await expectSentOnce(term, server);
  });

  it('typed and Entered the moment the first frame is on screen: sent once, the box empty', async () => {
    const { term, server } = await launch();
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.type('hello there');
    term.keys('Enter');
    await expectSentOnce(term, server);
    // Past the first read, Ctrl+J keeps its meaning: a line break in the box, nothing sent.
    term.type('one');
    term.keys('C-j');
    term.type('two');
    await term.waitForScreen((s) => /│ > one\s*│\n│ {3}two/.test(s), 'two lines in the prompt box');
    expect(server.requests).toHaveLength(1);
  });
});
