import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The monitor tool in the built cairn, in a real terminal (tmux), on a loopback Anthropic server:
// the model starts a background command and watches it for errors, its turn ends; the error line
// the command prints later shows as a small notice, and the lead answers it in a turn of its own.

const { startAnthropic } = cairnTerminals();

const SERVER = `while [ ! -e go ]; do sleep 0.05; done
echo 'GET / 200'
echo 'ERROR: port 5432 refused'
sleep 30
`;

describe.skipIf(!TmuxTerminal.available())('monitor in a real terminal', () => {
  it('a watched line shows as a notice and starts the idle lead\'s turn', async () => {
    const { term, server, ws } = await startAnthropic((body) => {
      const all = JSON.stringify(body.messages);
      if (body.messages.length === 1) {
        return anthropicReply([{ type: 'tool_use', id: 'toolu_bash', name: 'bash', input: { command: 'bash server.sh', run_in_background: true, description: 'Start the dev server' } }]);
      }
      if (!all.includes('toolu_watch')) return anthropicReply([{ type: 'tool_use', id: 'toolu_watch', name: 'monitor', input: { shell_id: 'bash_1', pattern: 'ERROR' } }]);
      return anthropicReply([{ type: 'text', text: all.includes('port 5432 refused') ? 'The database is not running.' : 'Watching the server.' }]);
    }, { columns: 120, rows: 40, args: '--dangerously-skip-permissions --no-sandbox', files: { 'server.sh': SERVER } });
    term.type('start the server and watch it');
    term.keys('Enter');
    const watching = await term.waitForScreen((s) => s.includes('Watching the server.') && !s.includes('esc to interrupt'), 'the lead idle, watching', 30_000);
    expect(watching).toContain('watch bash_1 for /ERROR/');

    await writeFile(join(ws.dir, 'go'), '');
    const screen = await term.waitForScreen((s) => s.includes('The database is not running.') && !s.includes('esc to interrupt'), 'the notice and the lead\'s answer', 30_000);
    // The notice, then the turn it starts.
    expect(screen).toMatch(/bash_1 \/ERROR\/: 1 new line\n\s+ERROR: port 5432 refused\n\s*› A background shell you are watching has news/);
    expect(screen).not.toContain('GET / 200');
    expect(server.requests.at(-1)?.raw ?? '').toContain('ERROR: port 5432 refused');
  }, 120_000);
});
