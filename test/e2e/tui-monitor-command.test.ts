import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// monitor {command} (Claude Code's Monitor) in the built cairn, in a real terminal (tmux), on a
// loopback Anthropic server, in the default mode with the sandbox on: the model starts a server
// with monitor and a wait that times out; the user sees the server's error line as a notice, the
// wait's expiry as a warning, and the server's end ("failed with exit code 2; watch over").

const { startAnthropic } = cairnTerminals();

const SERVER = `while [ ! -e go ]; do sleep 0.05; done
echo 'GET / 200'
echo 'ERROR: port 5432 refused'
while [ ! -e stop ]; do sleep 0.05; done
exit 2
`;

describe.skipIf(!TmuxTerminal.available())('monitor {command} in a real terminal', () => {
  it('shows the lines, the expiry and the end of commands monitor started', async () => {
    const { term, ws } = await startAnthropic((body) => {
      const all = JSON.stringify(body.messages);
      if (body.messages.length === 1) {
        return anthropicReply([
          { type: 'tool_use', id: 'toolu_server', name: 'monitor', input: { command: 'bash server.sh', description: 'Dev server errors', pattern: 'ERROR' } },
          { type: 'tool_use', id: 'toolu_wait', name: 'monitor', input: { command: 'sleep 60', description: 'Wait for the build', timeout_ms: 2_000 } },
        ]);
      }
      if (body.messages.length === 3) return anthropicReply([{ type: 'text', text: 'Watching the server.' }]);
      const last = JSON.stringify(body.messages.at(-1));
      if (last.includes('stream ended')) return anthropicReply([{ type: 'text', text: 'The server exited.' }]);
      if (last.includes('expired')) return anthropicReply([{ type: 'text', text: 'The wait expired.' }]);
      return anthropicReply([{ type: 'text', text: all.includes('port 5432 refused') ? 'The database is not running.' : 'Noted.' }]);
    }, { columns: 120, rows: 50, files: { 'server.sh': SERVER } });
    term.type('start the server and watch it');
    term.keys('Enter');
    const started = await term.waitForScreen((s) => s.includes('The wait expired.') && !s.includes('esc to interrupt'), 'the wait expired', 60_000);
    // The calls' cards, titled by their descriptions; the expiry is a notice of its own.
    expect(started).toContain('Dev server errors');
    expect(started).toContain('Stopped watching bash_2: its timeout of 2 s expired; its command was stopped');

    await writeFile(join(ws.dir, 'go'), '');
    const lines = await term.waitForScreen((s) => s.includes('The database is not running.') && !s.includes('esc to interrupt'), 'the error line and the answer', 60_000);
    expect(lines).toMatch(/bash_1 \/ERROR\/: 1 new line\n\s+ERROR: port 5432 refused/);
    expect(lines).not.toContain('GET / 200');

    await writeFile(join(ws.dir, 'stop'), '');
    const ended = await term.waitForScreen((s) => s.includes('The server exited.') && !s.includes('esc to interrupt'), 'the end and the answer', 60_000);
    expect(ended).toContain('bash_1 failed with exit code 2; watch over');
    // The shells cairn started for monitor are bash's: /bashes lists them.
    term.type('/bashes ');
    term.keys('Enter');
    const listed = await term.waitForScreen((s) => s.includes('Background shells (0 running)'), '/bashes', 30_000);
    expect(listed).toMatch(/bash_1\s+failed \(exit 2\)\s+bash server\.sh/);
    expect(listed).toMatch(/bash_2\s+killed \(SIGTERM\)\s+sleep 60/);
  }, 180_000);

  it('asks for a command exactly as for bash (--no-sandbox): the approval shows the command, and a yes starts it', async () => {
    const { term } = await startAnthropic((body) => {
      if (body.messages.length === 1) {
        return anthropicReply([{ type: 'tool_use', id: 'toolu_server', name: 'monitor', input: { command: 'bash server.sh', description: 'Dev server errors', pattern: 'ERROR' } }]);
      }
      return anthropicReply([{ type: 'text', text: 'Watching the server.' }]);
    }, { columns: 100, rows: 30, args: '--no-sandbox', files: { 'server.sh': SERVER } });
    term.type('start the server and watch it');
    term.keys('Enter');
    const asked = await term.waitForText('Allow monitor: Dev server errors?');
    expect(asked).toContain('$ bash server.sh');
    // bash's reason and bash's rules to remember (the script is read: its `exit 2` is a part too).
    expect(asked).toContain('needs your approval: no rule allows "bash server.sh", "exit 2" in this compound command');
    expect(asked).toContain("Yes, and don't ask again this session for bash(bash server.sh:*), bash(exit:*) (a)");
    await term.pauseBeforeAnswering();
    term.keys('y');
    const running = await term.waitForScreen((s) => s.includes('Watching the server.') && !s.includes('esc to interrupt'), 'the watch started', 60_000);
    expect(running).toContain('✓ monitor Dev server errors');
  }, 120_000);
});
