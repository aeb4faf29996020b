import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, anthropicStream, startAnthropicServer, type AnthropicRequestBody, type ScriptedResponse, type ScriptedServer } from '../helpers/anthropic-server.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// How a turn ended and what it cost, in the built cairn in a real terminal: an answer cut at the
// output limit, and the tokens and estimated cost of a stream the user interrupted.
const terminals: TmuxTerminal[] = [];
let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  for (const t of terminals.splice(0)) t.kill();
  await server?.close();
  server = undefined;
});

async function startCairn(args: string, env: Record<string, string> = {}, files: Record<string, string> = {}) {
  const ws = await tempWorkspace(files);
  const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, ...env } });
  terminals.push(term);
  await term.waitForText('shell$');
  term.type(`node ${cairnBin} ${args}`);
  term.keys('Enter');
  await term.waitForText('Ask cairn');
  return { term, ws };
}

async function anthropicTerminal(script: (body: AnthropicRequestBody, index: number) => ScriptedResponse, args = '', files: Record<string, string> = {}) {
  server = await startAnthropicServer((request, index) => script(request.body, index));
  const { term, ws } = await startCairn(`--provider anthropic ${args}`, { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url }, files);
  return { term, ws, server };
}

/** A reply that streams `text` and then stays open without finishing, like a model still writing. */
function heldReply(text: string, usage: { input_tokens: number } = { input_tokens: 10 }): ScriptedResponse {
  const chunks = anthropicStream({ content: [{ type: 'text', text }], usage });
  // Everything up to the text's content_block_stop; no message_delta or message_stop.
  return { chunks: chunks.slice(0, chunks.length - 3), hold: true };
}

describe.skipIf(!TmuxTerminal.available())('output limit and usage in a real terminal', () => {
  it('an answer cut at the output limit says so', async () => {
    const { term } = await anthropicTerminal(() => anthropicReply([{ type: 'text', text: 'Here is the long answer, which stops in the mid' }], { stopReason: 'max_tokens' }));
    term.type('write a long essay');
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => s.includes('stops in the mid') && s.includes('Ask cairn'), 'the answer');
    await term.waitForText('Answer cut at the output limit');
    expect(screen).toContain('stops in the mid');
  });

  it('an interrupted stream counts what it used: /usage and the status line show its tokens and an estimated cost', async () => {
    const { term } = await anthropicTerminal(() => heldReply('The beginning of an answer that will be interrupted', { input_tokens: 12_000 }), '--model claude-sonnet-5-5');
    term.type('explain the codebase');
    term.keys('Enter');
    await term.waitForText('will be interrupted');
    term.keys('Escape');
    await term.waitForScreen((s) => s.includes('Interrupted') && s.includes('Ask cairn'), 'the interruption');
    term.type('/usage');
    term.keys('Enter');
    const screen = await term.waitForText('Estimated cost');
    expect(screen).toMatch(/Session: 12\.0k input, [1-9]\d* output tokens/);
    // 12,000 input tokens at $2 per million, and a few output tokens at $10.
    expect(screen).toMatch(/claude-sonnet-5-5: 12\.0k in, \d+ out.*: \$0\.02/);
    expect(screen).toMatch(/prices checked \d{4}-\d\d-\d\d/);
    expect(screen).toMatch(/cut off before the provider reported usage/);
    expect(screen).toMatch(/↑12\.0k ↓\d+ ~\$0\.02/);
  });
});
