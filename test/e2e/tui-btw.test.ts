import { describe, expect, it } from 'vitest';
import { anthropicReply, type AnthropicRequestBody } from '../helpers/anthropic-server.js';
import { cairnTerminals, heldReply } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// /btw in the built cairn, in a real terminal, against a loopback Anthropic server: a side question
// is asked with the conversation as context, answered in a box Esc closes, and kept out of the history.
const { startAnthropic } = cairnTerminals();
const allText = (body: AnthropicRequestBody): string => JSON.stringify(body.messages);
const isSide = (body: AnthropicRequestBody): boolean => allText(body).includes('side question (/btw)');

describe.skipIf(!TmuxTerminal.available())('/btw in a real terminal', () => {
  it('answers with the context in a box; Esc closes it; the next request has neither question nor answer', async () => {
    const { term, server } = await startAnthropic((body) => {
      if (isSide(body)) return anthropicReply([{ type: 'text', text: 'The colour was teal, as you said.' }]);
      if (allText(body).includes('what next')) return anthropicReply([{ type: 'text', text: 'Next we paint the fence.' }]);
      return anthropicReply([{ type: 'text', text: 'Noted: the colour is teal.' }]);
    }, { columns: 120, rows: 40 });
    term.type('remember the colour teal');
    term.keys('Enter');
    await term.waitForText('Noted: the colour is teal.');
    term.type('/btw which colour did I say?');
    term.keys('Enter');
    const box = await term.waitForText('The colour was teal, as you said.');
    expect(box).toContain('not kept in the conversation');
    expect(box).toContain('> which colour did I say?');
    // Asked with the conversation so far.
    const side = server.requests[1]!.body;
    expect(allText(side)).toContain('remember the colour teal');
    expect(allText(side)).toContain('Noted: the colour is teal.');
    term.keys('Escape');
    await term.waitForScreen((s) => !s.includes('The colour was teal'), 'the box closed');

    term.type('what next');
    term.keys('Enter');
    await term.waitForText('Next we paint the fence.');
    const next = server.requests[2]!.body;
    expect(allText(next)).toContain('remember the colour teal');
    expect(allText(next)).not.toContain('which colour did I say');
    expect(allText(next)).not.toContain('The colour was teal');
  }, 90_000);

  it('while a turn runs: answered alongside, the turn keeps streaming and its request is not cancelled', async () => {
    const { term, server } = await startAnthropic((body) => {
      if (isSide(body)) return anthropicReply([{ type: 'text', text: 'Side answer: forty-two.' }]);
      return heldReply('Working on the long task, step one is');
    }, { columns: 120, rows: 40 });
    term.type('do the long task');
    term.keys('Enter');
    await term.waitForText('step one is');
    term.type('/btw what is six times seven?');
    term.keys('Enter');
    await term.waitForText('Side answer: forty-two.');
    expect(server.requests[0]!.disconnected).toBe(false);
    term.keys('Escape');
    const after = await term.waitForScreen((s) => !s.includes('Side answer'), 'the box closed');
    expect(after).toContain('step one is');
    expect(after).toContain('Esc to interrupt');
  }, 90_000);
});
