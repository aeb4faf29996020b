import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The spending cap in the built app in a real terminal: the status row shows the spend against
// the cap, a warning at 80%, and the turn stops before the model call that would pass it.
const { startAnthropic } = cairnTerminals();

// claude-fable-5 costs $10 per million input tokens: each call reports 30,000 (about $0.30).
const costly = (_body: unknown, i: number) =>
  anthropicReply([{ type: 'tool_use', id: `toolu_${i}`, name: 'bash', input: { command: `echo step ${i}` } }], { usage: { input_tokens: 30_000, output_tokens: 20 } });

describe.skipIf(!TmuxTerminal.available())('the spending cap in a real terminal', () => {
  it('maxBudgetUsd: the status row shows spend against the cap, and the turn stops before passing it', async () => {
    const { term, server } = await startAnthropic(costly, {
      args: '--model claude-fable-5 --permission-mode bypassPermissions',
      homeFiles: { 'settings.json': JSON.stringify({ maxBudgetUsd: 1 }) },
    });
    await term.waitForText('~$0.00/$1.00 cap');
    term.type('keep working');
    term.keys('Enter');
    const screen = await term.waitForText('Spending cap reached');
    // $0.30, $0.60, $0.90 (the warning), $1.20: the fifth call is not made.
    expect(server.requests).toHaveLength(4);
    expect(screen).toMatch(/Spent \$0\.90 of the \$1\.00 spending cap \(90%/);
    expect(screen).toMatch(/~\$1\.20\/\$1\.00 cap/);
    // The session is kept: the next prompt is refused the same way, without a model call.
    await term.waitForText('Ask cairn');
    term.type('one more thing');
    term.keys('Enter');
    await term.waitForScreen((s) => s.split('Spending cap reached').length > 2, 'the second refusal');
    expect(server.requests).toHaveLength(4);
  });
});
