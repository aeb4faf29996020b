import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, hasToolResults, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { waitFor } from '../helpers/wait-for.js';

// `cairn -p` whose answer ends while a teammate it started is still waiting for its model: the
// built binary, a protocol-exact loopback server, and the teammate's reply held until the lead's
// answer is on stdout.

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TEAMMATE_TASK = 'count the words in every file';
const isTeammate = (body: AnthropicRequestBody): boolean => JSON.stringify(body.messages[0]).includes(TEAMMATE_TASK);

describe('cairn -p with a teammate still working when the answer ends', () => {
  it('stops the teammate and exits cleanly: no stack trace, the answer intact, the stop said on stderr and recorded in the session file', async () => {
    const ws = await tempWorkspace();
    let release!: () => void;
    const leadDone = new Promise<void>((r) => (release = r));
    server = await startAnthropicServer(async (request) => {
      const body = request.body;
      if (isTeammate(body)) {
        // The teammate's model answers only after the lead's answer has been printed.
        await leadDone;
        return anthropicReply([{ type: 'text', text: 'Teammate counted 42 words.' }]);
      }
      if (!hasToolResults(body)) return anthropicReply([{ type: 'tool_use', id: 'toolu_spawn', name: 'team_spawn', input: { name: 'counter', type: 'general', instructions: TEAMMATE_TASK } }]);
      return anthropicReply([{ type: 'text', text: 'Lead answer: the counter is on it.' }]);
    });

    const child = spawn(process.execPath, [cairnBin, '-p', 'start a counter teammate', '--provider', 'anthropic', '--allowedTools', 'team_spawn'], {
      cwd: ws.dir,
      env: { ...process.env, CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    await waitFor(() => stdout.includes('Lead answer'), { timeout: 20_000, message: 'the lead answer on stdout' });
    release();
    const code = await exited;

    expect(stdout).toBe('Lead answer: the counter is on it.\n');
    expect(stderr).not.toMatch(/\n\s+at |Error: session file|is closed|Uncaught/);
    expect(stderr).toMatch(/^cairn: stopped teammate counter: still working when the answer ended/m);
    expect(code).toBe(0);
    // Its model request was cut off: the teammate did not go on working after the answer.
    const teammateRequest = server.requests.find((r) => isTeammate(r.body));
    expect(teammateRequest?.disconnected).toBe(true);

    // The session file holds the whole run, the teammate's stop last.
    const dir = join(ws.home, 'projects');
    const [project] = await readdir(dir);
    const files = (await readdir(join(dir, project!))).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    const lines = (await readFile(join(dir, project!, files[0]!), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { type: string; status?: string });
    expect(lines.map((l) => l.type)).toContain('terminal');
    expect(lines.at(-1)).toMatchObject({ type: 'team', kind: 'status', name: 'counter', status: 'stopped' });
  });

  it('stream-json: the result line stays the last line of output', async () => {
    const ws = await tempWorkspace();
    server = await startAnthropicServer((request) => {
      const body = request.body;
      // The teammate's model never answers: it is still working when the lead's answer ends.
      if (isTeammate(body)) return { chunks: [], hold: true };
      if (!hasToolResults(body)) return anthropicReply([{ type: 'tool_use', id: 'toolu_spawn', name: 'team_spawn', input: { name: 'counter', type: 'general', instructions: TEAMMATE_TASK } }]);
      return anthropicReply([{ type: 'text', text: 'Lead answer.' }]);
    });
    const run = await runCairn(['-p', 'start a counter teammate', '--provider', 'anthropic', '--allowedTools', 'team_spawn', '--output-format', 'stream-json'], {
      cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}')).toMatchObject({ type: 'result', subtype: 'success', result: 'Lead answer.' });
    expect(run.stderr).toMatch(/^cairn: stopped teammate counter: still working/m);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
