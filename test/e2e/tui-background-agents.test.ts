import { describe, expect, it } from 'vitest';
import { anthropicReply, anthropicStream } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// A background agent in the built cairn, in a real terminal (tmux), on a loopback Anthropic server
// whose answer to the subagent never comes: its card runs on after the lead's turn has ended,
// /agents lists it, x on its selected card stops it, and the lead is told in a turn of its own.

const { startAnthropic } = cairnTerminals();
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describe.skipIf(!TmuxTerminal.available())('a background agent in a real terminal', () => {
  it('runs in its own card after the turn, is listed by /agents, and x stops it; the lead hears of it', async () => {
    const { term, server } = await startAnthropic((body) => {
      if (JSON.stringify(body.system ?? '').includes('subagent of cairn')) return { chunks: anthropicStream({ content: [] }).slice(0, 1), hold: true };
      if (body.messages.length === 1) {
        return anthropicReply([{ type: 'tool_use', id: 'toolu_bg', name: 'agent', input: { type: 'general', task: 'watch the logs', description: 'watch logs', run_in_background: true } }]);
      }
      return anthropicReply([{ type: 'text', text: body.messages.length === 3 ? 'it runs on its own' : 'the watcher was stopped' }]);
    }, { columns: 120, rows: 40 });
    term.type('start the watcher');
    term.keys('Enter');
    const running = await term.waitForScreen(
      (s) => s.includes('it runs on its own') && /Ask cairn/.test(s) && !s.includes('esc to interrupt') && s.split('\n').some((l) => /general: watch logs \(background agent_1\)/.test(l) && SPINNER.test(l)),
      'the lead idle and the background card running',
      30_000,
    );
    expect(running).toMatch(/✓ agent general: watch logs {2}/);

    term.type('/agents');
    term.keys('Enter');
    const listed = await term.waitForScreen((s) => s.includes('Background agents (1 running') && s.includes('Ask cairn'), '/agents listing it', 20_000);
    expect(listed).toMatch(/agent_1\s+running\s+\d turns?.*general: watch logs/);

    term.keys('Tab');
    // The background card drawn selected (its tool name in inverse video) before x is typed.
    await term.waitForScreen(() => term.styledScreen().split('\n').some((l) => l.includes('(background agent_1)') && l.includes('\x1b[7m')), 'the background card selected');
    term.type('x');
    const stopped = await term.waitForScreen((s) => s.includes('Background agent agent_1 (general: watch logs) stopped') && s.includes('the watcher was stopped'), 'the stop and the lead\'s turn for it', 30_000);
    expect(stopped).not.toMatch(new RegExp(`general: watch logs \\(background agent_1\\).*${SPINNER.source}`));
    const told = server.requests.at(-1)?.raw ?? '';
    expect(told).toContain('status=\\"stopped\\"');
  }, 120_000);
});
