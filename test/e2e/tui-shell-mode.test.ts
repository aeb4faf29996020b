import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// `!` at the prompt in the built cairn, in a real terminal: the command runs in the user's shell
// with no model call and no approval, its output shows as a card, and the next request carries it.
const { startAnthropic } = cairnTerminals();

describe.skipIf(!TmuxTerminal.available())('! shell mode in a real terminal', () => {
  it('runs the command, shows its output and exit code, asks nothing, and the model sees command and output next request', async () => {
    const { term, server } = await startAnthropic(() => anthropicReply([{ type: 'text', text: 'I see the listing.' }]), { files: { 'marker-file.txt': 'x' } });

    term.type('!ls; echo to-stderr >&2; exit 3');
    term.keys('Enter');
    const screen = await term.waitForScreen((s) => s.includes('exit code 3') && s.includes('to-stderr'), 'the command card with its output');
    expect(screen).toMatch(/! ls; echo to-stderr >&2; exit 3/);
    expect(screen).toContain('marker-file.txt');
    expect(screen).not.toContain('Allow');
    // No model call for it.
    expect(server.requests).toHaveLength(0);

    term.type('what did that show?');
    term.keys('Enter');
    await term.waitForText('I see the listing.');
    expect(server.requests).toHaveLength(1);
    const messages = JSON.stringify(server.requests[0]!.body.messages);
    expect(messages).toContain('<bash-input>ls; echo to-stderr >&2; exit 3</bash-input>');
    expect(messages).toMatch(/<bash-output exit_code=\\"3\\">marker-file.txt\\nto-stderr\\n<\/bash-output>/);
    expect(messages).toContain('what did that show?');
  });
});
