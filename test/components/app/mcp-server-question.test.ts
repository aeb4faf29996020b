import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askMcpServerOnTerminal, MCP_SERVER_PROMPT } from '../../../components/app/mcp-server-question.js';
import { IGNORED_KEYS_NOTICE } from '../../../components/app/trust-question.js';
import { ANSWER_GUARD_MS, TYPING_IDLE_MS } from '../../../components/keys/answer-guard.js';
import { createFakeClock } from '../../../src/clock.js';
import type { McpServerAnswer } from '../../../src/runtime/mcp-choices-at-start.js';

// The question about a new project MCP server on a terminal whose keys arrive when the test says.
function terminal(name = 'tracker', typedAhead?: string) {
  const clock = createFakeClock(1_000);
  const input = Object.assign(new PassThrough(), { setRawMode: () => undefined });
  if (typedAhead !== undefined) input.write(typedAhead);
  const output = new PassThrough();
  let screen = '';
  output.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  let answer: McpServerAnswer | undefined;
  const answered = askMcpServerOnTerminal({ input, output, clock, interrupt: () => undefined })({
    folder: '/work/repo',
    server: { name, source: '/work/repo/.mcp.json', what: 'runs: node server.js' },
    index: 2,
    count: 3,
  }).then((a) => (answer = a));
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    answered,
    answer: () => answer,
    screen: () => screen,
    async type(text: string, afterMs = 0) {
      clock.advance(afterMs);
      input.write(text);
      await settle();
    },
    async later(ms: number) {
      clock.advance(ms);
      await settle();
    },
  };
}

describe('the new MCP server question', () => {
  it('names the server, its file and what it runs; y, a, n and Enter mean approve, approve all, decline, not now', async () => {
    for (const [typed, meant] of [['y', 'approve'], ['YES', 'approve'], ['a', 'approve-all'], ['n', 'decline'], ['', 'later'], ['maybe', 'later']] as const) {
      const t = terminal();
      await t.later(ANSWER_GUARD_MS);
      expect(t.screen()).toContain('New MCP server in /work/repo (2 of 3): "tracker"');
      expect(t.screen()).toContain('from /work/repo/.mcp.json');
      expect(t.screen()).toContain('runs: node server.js');
      expect(t.screen().endsWith(MCP_SERVER_PROMPT)).toBe(true);
      await t.type(`${typed}\r`);
      await t.answered;
      expect(t.answer()).toBe(meant);
    }
  });

  it('a y typed before the question could be read approves nothing', async () => {
    const t = terminal('tracker', 'y\r');
    await t.later(0);
    await t.later(ANSWER_GUARD_MS + TYPING_IDLE_MS);
    expect(t.answer()).toBeUndefined();
    expect(t.screen()).toContain(IGNORED_KEYS_NOTICE);
    await t.type('\r');
    await t.answered;
    expect(t.answer()).toBe('later');
  });

  it('control sequences in a server name from the file are not sent to the terminal', async () => {
    const t = terminal('evil\x1b]0;title\x07');
    await t.later(ANSWER_GUARD_MS);
    expect(t.screen()).not.toContain('\x1b]0;');
  });
});
