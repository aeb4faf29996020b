// monitor {command} through the runtime and a loopback Anthropic server (issue 38 item 3, Claude
// Code's Monitor): the model starts a command with monitor itself and its turn ends; what the
// command prints later, its end ("stream ended" with the exit code), its timeout and a flood each
// reach the idle lead's next request, in a turn cairn starts. Default mode with the sandbox on
// (real bubblewrap): the command runs contained, unasked, as bash's would.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, EventOf } from '../../../src/events.js';
import { WATCHED_OUTPUT_ARRIVED } from '../../../src/runtime/background-work.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { anthropicReply, type AnthropicRequestBody } from '../../helpers/anthropic-server.js';
import { waitFor } from '../../helpers/wait-for.js';

afterEach(closeAnthropicRuntimes);

const text = (body: AnthropicRequestBody): string => JSON.stringify(body.messages);

/** A runtime whose model calls monitor with `input` on the first request, then answers in text. */
async function monitoring(input: Record<string, unknown>, opts: { files?: Record<string, string>; env?: NodeJS.ProcessEnv } = {}) {
  const rt = await anthropicRuntime({
    files: opts.files ?? {},
    ...(opts.env ? { env: opts.env } : {}),
    runtime: { interactive: true },
    script: (req) => {
      if (req.body.messages.length === 1) return anthropicReply([{ type: 'tool_use', id: 'toolu_monitor', name: 'monitor', input }]);
      return anthropicReply([{ type: 'text', text: 'noted' }]);
    },
  });
  const events: AgentEvent[] = [];
  rt.runtime.session.subscribe((e) => events.push(e));
  const terminal = await rt.runtime.session.run('watch it');
  expect(terminal.reason).toBe('completed');
  expect(events.some((e) => e.type === 'permission_request' || e.type === 'permission_denied')).toBe(false);
  const result = events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.id === 'toolu_monitor');
  return { ...rt, events, result, before: rt.server.requests.length };
}

/** The first request after `before` once the turn it started is over, the one that holds `needle`. */
async function laterRequest(rt: Awaited<ReturnType<typeof monitoring>>, needle: string, timeout = 20_000): Promise<string> {
  return waitFor(() => {
    const sent = rt.server.requests.slice(rt.before).map((r) => text(r.body)).find((t) => t.includes(needle));
    if (sent === undefined || rt.runtime.session.busy) throw new Error(`no request with ${needle} yet`);
    return sent;
  }, { timeout, message: `a request holding ${JSON.stringify(needle)}` });
}

const SERVER = `while [ ! -e go ]; do sleep 0.05; done
echo 'GET / 200'
echo 'ERROR: connection refused'
while [ ! -e stop ]; do sleep 0.05; done
exit 4
`;

describe('monitor {command} through the runtime', () => {
  it('the matching lines of a started command reach the idle lead\'s next request, then "stream ended" with the exit code', async () => {
    const rt = await monitoring({ command: 'bash server.sh', description: 'dev server errors', pattern: 'ERROR' }, { files: { 'server.sh': SERVER } });
    expect(rt.result?.content).toMatch(/^Started background shell bash_1 and monitoring it\. Lines matching \/ERROR\/ will reach you/);
    // bash's background shells list it (/bashes), and it runs in the sandbox.
    expect(rt.runtime.background.shells.list()).toMatchObject([{ id: 'bash_1', command: 'bash server.sh', status: 'running' }]);
    await fs.writeFile(path.join(rt.dir, 'go'), '');
    const lines = await laterRequest(rt, 'ERROR: connection refused');
    expect(lines).toContain(WATCHED_OUTPUT_ARRIVED);
    expect(lines).toContain('New output from the command you are monitoring \\"dev server errors\\" (bash_1: bash server.sh) matching /ERROR/');
    expect(lines).not.toContain('GET / 200');
    expect(lines).not.toContain('stream ended, and the watch is over');
    await fs.writeFile(path.join(rt.dir, 'stop'), '');
    const ended = await laterRequest(rt, 'stream ended, and the watch is over');
    expect(ended).toContain('The command you were monitoring, bash_1 (bash server.sh), failed with exit code 4: stream ended, and the watch is over.');
    // Told once: the watch's note, not also the background shell's completion line.
    expect(ended).not.toContain('Background shell bash_1 (bash server.sh) failed');
  }, 60_000);

  it('a command still running at its timeout is stopped, and the lead is told it expired', async () => {
    const rt = await monitoring({ command: 'echo waiting; sleep 60', description: 'wait for the build', timeout_ms: 1_000 });
    const sent = await laterRequest(rt, 'expired');
    expect(sent).toContain('The monitor of bash_1 (echo waiting; sleep 60) expired: its timeout of 1 s expired, so the command was stopped.');
    await waitFor(() => rt.runtime.background.shells.list()[0]?.status === 'killed', { message: 'the command was killed' });
  }, 60_000);

  it('a command that floods is stopped after 30 s of it (a fast clock), and the lead is told to filter', async () => {
    const rt = await monitoring({ command: 'while true; do echo noise; done', description: 'everything' }, { env: { CAIRN_CLOCK_SPEED: '20' } });
    const sent = await laterRequest(rt, 'more lines than can be delivered');
    expect(sent).toMatch(/Stopped monitoring bash_1 \(while true; do echo noise; done\): it printed more lines than can be delivered for 30 s straight \(\d+ suppressed\), so the command was stopped\. Filter its output/);
    await waitFor(() => rt.runtime.background.shells.list()[0]?.status === 'killed', { message: 'the command was killed' });
    const stopped = rt.events.filter((e): e is EventOf<'shell_watch'> => e.type === 'shell_watch' && e.status === 'stopped');
    expect(stopped).toMatchObject([{ cause: 'flood' }]);
  }, 60_000);
});
