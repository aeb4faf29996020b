import { describe, expect, it } from 'vitest';
import { anthropicReply, hasToolResults, type AnthropicRequestBody, type ScriptedResponse } from '../helpers/anthropic-server.js';
import { cairnTerminals, heldReply } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Conversation control in the built cairn, in a real terminal: /clear while a turn runs, and Esc
// with prompts queued.
const { start, startAnthropic } = cairnTerminals();
const startCairn = (args: string) => start({ args });
const anthropicTerminal = (script: (body: AnthropicRequestBody, index: number) => ScriptedResponse, args = '', files: Record<string, string> = {}) =>
  startAnthropic(script, { args, files });

const promptRows = (screen: string): string[] => screen.split('\n').filter((l) => /^│ [> ] /.test(l)).map((l) => l.slice(4).replace(/\s*│\s*$/, ''));
const allText = (body: AnthropicRequestBody): string => JSON.stringify(body.messages);

describe.skipIf(!TmuxTerminal.available())('conversation control in a real terminal', () => {
  it('/clear while a turn runs: the turn stops, the next request carries no earlier message, and the todo list and its reminder are gone', async () => {
    const todos = [
      { content: 'Write the plan', status: 'in_progress', activeForm: 'Writing the plan' },
      { content: 'Ship it', status: 'pending', activeForm: 'Shipping it' },
    ];
    const { term, server } = await anthropicTerminal((body, i) => {
      if (i === 0) return anthropicReply([{ type: 'tool_use', id: 'toolu_todo', name: 'todo_write', input: { todos } }]);
      if (i === 1) return heldReply('Working through the plan, step one is');
      // After /clear: three reads in a row (turns enough for a stale-todo reminder), then an answer.
      if (!hasToolResults(body) || i < 5) return anthropicReply([{ type: 'tool_use', id: `toolu_read_${i}`, name: 'read_file', input: { path: 'a.txt' } }]);
      return anthropicReply([{ type: 'text', text: 'Read it three times.' }]);
    }, '', { 'a.txt': 'one\n' });

    term.type('make a plan for the release');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('step one is') && s.includes('Ship it'), 'the todo list and the answer streaming');
    term.type('/clear');
    term.keys('Enter');
    const cleared = await term.waitForScreen((s) => s.includes('Started a new conversation') && s.includes('Ask cairn'), 'the new conversation');
    expect(cleared).not.toContain('make a plan for the release');
    expect(cleared).not.toContain('Ship it');
    // The held stream was given up.
    await term.waitForScreen(() => server.requests[1]!.disconnected, 'the running request to be cancelled');

    term.type('read a.txt');
    term.keys('Enter');
    await term.waitForText('Read it three times.');
    const after = server.requests.slice(2);
    expect(after).toHaveLength(4);
    // Only the new prompt and what followed it: not the old prompt, its tool call or its answer.
    expect(after[0]!.body.messages).toHaveLength(1);
    for (const r of after) {
      expect(allText(r.body)).not.toContain('make a plan');
      expect(allText(r.body)).not.toContain('toolu_todo');
      expect(allText(r.body)).not.toMatch(/todo list has open items/);
    }
  });

  it('Esc with prompts queued: nothing runs by itself, the queued prompts come back into the editor in order; Up takes the last one back first', async () => {
    const { term } = await startCairn('');
    term.type('stream 400 at 20/s');
    term.keys('Enter');
    await term.waitForText('Esc to interrupt');
    for (const prompt of ['first queued', 'second queued']) {
      term.type(prompt);
      await term.waitForScreen((s) => promptRows(s)[0] === prompt, `"${prompt}" typed`);
      term.keys('Enter');
      await term.waitForText(`queued: ${prompt}`);
    }

    // Up on the empty prompt: the last queued prompt comes back to be edited; it no longer waits.
    term.keys('Up');
    let screen = await term.waitForScreen((s) => promptRows(s)[0] === 'second queued', 'the last queued prompt in the editor');
    expect(screen).toContain('queued: first queued');
    expect(screen).not.toContain('queued: second queued');
    term.type(', edited');

    term.keys('Escape');
    screen = await term.waitForScreen((s) => s.includes('Interrupted') && promptRows(s).join('\n') === 'first queued\nsecond queued, edited', 'the queue back in the editor, in order');
    expect(screen).not.toContain('queued: ');
    // Nothing was sent: no prompt after the interrupted one, and the app is idle.
    screen = await term.waitForStable(1000);
    expect(screen).not.toMatch(/› first queued/);
    expect(screen).not.toContain('Esc to interrupt');
    expect(promptRows(screen).join('\n')).toBe('first queued\nsecond queued, edited');

    // Sending it is the user's choice.
    term.keys('Enter');
    await term.waitForScreen((s) => /› first queued/.test(s), 'the draft sent as one prompt');
  });
});
