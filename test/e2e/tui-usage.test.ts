import { describe, expect, it } from 'vitest';
import { anthropicReply, type AnthropicRequestBody, type ScriptedResponse } from '../helpers/anthropic-server.js';
import { cairnTerminals, heldReply } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// How a turn ended and what it cost, in the built cairn in a real terminal: an answer cut at the
// output limit, and the tokens and estimated cost of a stream the user interrupted.
const { startAnthropic } = cairnTerminals();
const anthropicTerminal = (script: (body: AnthropicRequestBody, index: number) => ScriptedResponse, args = '', files: Record<string, string> = {}) =>
  startAnthropic(script, { args, files });

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
