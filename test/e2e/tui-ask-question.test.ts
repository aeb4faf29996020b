import { describe, expect, it } from 'vitest';
import { anthropicReply, hasToolResults, type AnthropicRequestBody } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The model asks the user a question (ask_user_question) against a protocol-exact loopback
// Anthropic server, in the built cairn in a real terminal: the picker drawn inline, answered by
// keys, and what the next request tells the model.

const { startAnthropic } = cairnTerminals();

const QUESTIONS = {
  questions: [
    {
      question: 'Which database should the service use?',
      header: 'Database',
      options: [
        { label: 'Postgres', description: 'relational, the team knows it' },
        { label: 'SQLite', description: 'one file, no server' },
        { label: 'DynamoDB', description: 'managed, key-value' },
      ],
      multiSelect: false,
    },
  ],
};

const MULTI = {
  questions: [
    {
      question: 'Which checks should run in CI?',
      header: 'Checks',
      options: [
        { label: 'Lint', description: 'eslint' },
        { label: 'Types', description: 'tsc --noEmit' },
        { label: 'Tests', description: 'vitest' },
      ],
      multiSelect: true,
    },
  ],
};

/** The model asks `input` on the first request and says "Noted." once it has the answer. */
const asks = (input: unknown) => (body: AnthropicRequestBody) =>
  hasToolResults(body) ? anthropicReply([{ type: 'text', text: 'Noted.' }]) : anthropicReply([{ type: 'tool_use', id: 'toolu_q1', name: 'ask_user_question', input }]);

/** The tool result the second request carries for the question. */
function questionResult(body: AnthropicRequestBody): { content: string; isError: boolean } {
  const block = body.messages.flatMap((m) => m.content).find((b) => b['type'] === 'tool_result' && b['tool_use_id'] === 'toolu_q1');
  const content = block?.['content'];
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? '').join('') : '';
  return { content: text, isError: block?.['is_error'] === true };
}

const promptLine = (screen: string): string => screen.split('\n').find((l) => l.startsWith('│ >')) ?? '';

describe.skipIf(!TmuxTerminal.available())('a question from the model in a real terminal', () => {
  it('is offered to the model under its name, drawn inline with numbered options; 2 picks the second and the next request carries it', async () => {
    const { term, server } = await startAnthropic(asks(QUESTIONS), { columns: 110, rows: 36 });
    term.type('set up storage');
    term.keys('Enter');
    await term.waitForText('› set up storage');
    const screen = await term.waitForScreen((s) => s.includes('cairn asks') && s.includes('3. ( ) DynamoDB') && s.includes('4. ( ) Other'), 'the question picker');
    expect(screen).toContain('Database: Which database should the service use?');
    expect(server.requests[0]!.body.tools?.some((t) => t.name === 'ask_user_question')).toBe(true);
    await term.pauseBeforeAnswering();
    term.type('2');
    await term.waitForText('Noted.');
    expect(server.requests).toHaveLength(2);
    const result = questionResult(server.requests[1]!.body);
    expect(result.isError).toBe(false);
    expect(result.content).toContain('"Which database should the service use?"="SQLite"');
    expect(term.screen()).not.toContain('cairn asks');
  });

  it('multiple choice: Space and numbers tick, "Other" takes typed text, Enter sends all of it', async () => {
    const { term, server } = await startAnthropic(asks(MULTI), { columns: 110, rows: 36 });
    term.type('set up ci');
    term.keys('Enter');
    await term.waitForText('› set up ci');
    await term.waitForScreen((s) => s.includes('Checks: Which checks should run in CI? (choose any)') && s.includes('4. [ ] Other'), 'the multiple-choice picker');
    await term.pauseBeforeAnswering();
    term.keys('Space'); // ticks the option under the cursor: Lint
    term.type('3');
    await term.waitForScreen((s) => s.includes('[x] Lint') && s.includes('[x] Tests') && s.includes('[ ] Types'), 'Lint and Tests ticked');
    term.type('4');
    await term.waitForText('[x] Other:');
    term.type('a smoke run');
    await term.waitForText('Other: a smoke run');
    term.keys('Enter');
    await term.waitForText('Noted.');
    const result = questionResult(server.requests[1]!.body);
    expect(result.content).toContain('"Which checks should run in CI?"="Lint, Tests, a smoke run"');
  });

  it('a bracketed paste into "Other" is its text (digits, Tab and lines included), not keys and not the draft', async () => {
    const { term, server } = await startAnthropic(asks(QUESTIONS), { columns: 110, rows: 36 });
    term.type('set up storage');
    term.keys('Enter');
    await term.waitForText('› set up storage');
    await term.waitForText('4. ( ) Other');
    await term.pauseBeforeAnswering();
    term.type('4');
    await term.waitForText('(•) Other:');
    // 2 and 3 would pick options, Tab would move on, Enter would send: pasted, they are text.
    term.tmux('set-buffer', 'Redis 2 or 3\tnodes\nbehind a proxy');
    term.tmux('paste-buffer', '-p');
    const screen = await term.waitForScreen((s) => s.includes('Other: Redis 2 or 3'), 'the pasted text in the Other field');
    expect(screen).toContain('behind a proxy');
    expect(promptLine(screen)).not.toContain('Redis');
    expect(server.requests).toHaveLength(1);
    term.keys('Enter');
    await term.waitForText('Noted.');
    const result = questionResult(server.requests[1]!.body);
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(/"Which database should the service use\?"="Redis 2 or 3\s+nodes behind a proxy"/);
  });

  it('Esc declines: the model is told, and the turn goes on', async () => {
    const { term, server } = await startAnthropic(asks(QUESTIONS), { columns: 110, rows: 36 });
    term.type('set up storage');
    term.keys('Enter');
    await term.waitForText('› set up storage');
    await term.waitForText('4. ( ) Other');
    term.keys('Escape');
    await term.waitForText('Noted.');
    const result = questionResult(server.requests[1]!.body);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('the user declined to answer');
  });

  it('keys typed before the question appeared go to the draft and answer nothing', async () => {
    const { term, server } = await startAnthropic(asks(QUESTIONS), { columns: 110, rows: 36 });
    term.type('set up storage');
    term.keys('Enter');
    await term.waitForText('› set up storage');
    // Keep typing as the picker appears: 1 and 2 are options, Space ticks, Enter would take one.
    const draft = 'use 2 or 1 please';
    let appearedWhileTyping = false;
    for (const ch of draft) {
      term.type(ch);
      await new Promise((r) => setTimeout(r, 200));
      appearedWhileTyping ||= term.screen().includes('cairn asks');
    }
    expect(appearedWhileTyping).toBe(true);
    const screen = await term.waitForScreen((s) => promptLine(s).includes(draft), 'the whole draft in the prompt box');
    expect(screen).toContain('4. ( ) Other');
    expect(screen).not.toContain('(•)');
    expect(server.requests).toHaveLength(1);

    await term.pauseBeforeAnswering();
    term.type('1');
    await term.waitForText('Noted.');
    expect(questionResult(server.requests[1]!.body).content).toContain('="Postgres"');
    expect(promptLine(term.screen())).toContain(draft);
  });
});
