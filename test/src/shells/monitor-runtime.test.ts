// The monitor tool through the runtime and a loopback Anthropic server (issue 38 item 3): the model
// starts a background command, watches it for a pattern, its turn ends; the matching line the
// command prints later reaches the lead's next request (a turn cairn starts, the lead being idle),
// the other lines never do, and the user sees a small notice.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, EventOf } from '../../../src/events.js';
import { WATCHED_OUTPUT_ARRIVED } from '../../../src/runtime/background-work.js';
import { initialState, reduce } from '../../../components/store/reduce.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { anthropicReply, type AnthropicRequestBody } from '../../helpers/anthropic-server.js';
import { waitFor } from '../../helpers/wait-for.js';

afterEach(closeAnthropicRuntimes);

const text = (body: AnthropicRequestBody): string => JSON.stringify(body.messages);
const SERVER = `while [ ! -e go ]; do sleep 0.05; done
echo 'GET / 200'
echo 'ERROR: connection refused' >&2
echo 'compiled fine'
sleep 30
`;

describe('monitor', () => {
  it('a watched background command\'s matching line reaches the idle lead\'s next request; the others never do', async () => {
    const { runtime, server, dir } = await anthropicRuntime({
      files: { 'server.sh': SERVER },
      runtime: { interactive: true, permissionMode: 'bypassPermissions', sandbox: false },
      script: (req) => {
        const all = text(req.body);
        if (req.body.messages.length === 1 && all.includes('start the server')) {
          return anthropicReply([{ type: 'tool_use', id: 'toolu_bash', name: 'bash', input: { command: 'bash server.sh', run_in_background: true, description: 'Start the dev server' } }]);
        }
        if (all.includes('Started background shell bash_1') && !all.includes('toolu_watch')) {
          return anthropicReply([{ type: 'tool_use', id: 'toolu_watch', name: 'monitor', input: { shell_id: 'bash_1', pattern: 'ERROR|panic' } }]);
        }
        return anthropicReply([{ type: 'text', text: all.includes('connection refused') ? 'the database is down' : 'watching' }]);
      },
    });
    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    // Offered to the model under cairn's name.
    expect(runtime.session.tools.map((t) => t.name)).toContain('monitor');

    const terminal = await runtime.session.run('start the server and tell me about errors');
    expect(terminal.reason).toBe('completed');
    const watchResult = events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.id === 'toolu_watch');
    expect(watchResult?.content).toMatch(/^Watching bash_1 \(bash server.sh\): lines matching \/ERROR\|panic\/ will reach you/);
    expect(runtime.session.busy).toBe(false);
    const before = server.requests.length;

    await fs.writeFile(path.join(dir, 'go'), '');
    const later = await waitFor(() => {
      const next = server.requests.slice(before);
      if (next.length === 0 || runtime.session.busy) throw new Error('no request yet');
      return next;
    }, { timeout: 20_000, message: 'the watched line started a turn' });
    const sent = text(later[0]!.body);
    expect(sent).toContain(WATCHED_OUTPUT_ARRIVED);
    expect(sent).toContain('ERROR: connection refused');
    expect(sent).toContain('<shell-watch shell=\\"bash_1\\"');
    expect(sent).not.toContain('GET / 200');
    expect(sent).not.toContain('compiled fine');
    // The whole output was printed (bash_output has it all); only the match went to the model.
    expect(runtime.background.shells.output('bash_1')?.text).toContain('compiled fine');

    // What the user sees: a small notice with the line.
    const state = events.reduce((s, event) => reduce(s, { type: 'event', event, at: 0 }), initialState());
    const notices = state.items.flatMap((i) => (i.kind === 'notice' && i.code === 'shell_watch' ? [i.message] : []));
    expect(notices).toEqual(['bash_1 /ERROR|panic/: 1 new line\n  ERROR: connection refused']);
  }, 60_000);

  it('watching is never asked: in the default mode with no one to ask, the call runs', async () => {
    const { runtime } = await anthropicRuntime({
      runtime: { interactive: false, sandbox: false },
      script: (req) => {
        const all = text(req.body);
        if (req.body.messages.length === 1) return anthropicReply([{ type: 'tool_use', id: 'toolu_watch', name: 'monitor', input: { shell_id: 'bash_1' } }]);
        return anthropicReply([{ type: 'text', text: all.includes('Watching bash_1') ? 'watching' : 'refused' }]);
      },
    });
    runtime.background.shells.start('sleep 30', runtime.cwd);
    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    const terminal = await runtime.session.run('watch it');
    expect(terminal.result).toBe('watching');
    expect(events.some((e) => e.type === 'permission_request' || e.type === 'permission_denied')).toBe(false);
  }, 60_000);
});
