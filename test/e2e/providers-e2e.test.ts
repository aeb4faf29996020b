import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type ScriptedServer } from '../helpers/anthropic-server.js';
import { ofType } from '../helpers/collect.js';
import { openaiReply, startOpenAIServer } from '../helpers/openai-server.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// The kernel's headless scenario (two parallel reads, then a write), unchanged, against
// loopback servers speaking each protocol, through the real SDK clients in the built binary.

const files = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'alpha\nbeta\n' };
let server: ScriptedServer<unknown> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function expectScenario(run: Awaited<ReturnType<typeof runCairn>>, dir: string): Promise<void> {
  expect(run.code, run.stderr).toBe(0);
  const starts = ofType(run.events, 'tool_start');
  expect(starts.map((s) => [s.name, s.parallel])).toEqual([['read_file', true], ['read_file', true], ['write_file', false]]);
  const results = ofType(run.events, 'tool_result');
  expect(results.every((r) => !r.is_error)).toBe(true);
  expect(await fs.readFile(path.join(dir, 'c.txt'), 'utf8')).toBe('hello\n');
  expect(ofType(run.events, 'terminal')[0]).toMatchObject({ reason: 'completed', result: 'Read both, wrote c.txt.' });
  expect(ofType(run.events, 'usage').length).toBe(3);
}

describe('headless scenario against local protocol servers', () => {
  it('--provider anthropic', async () => {
    const ws = await tempWorkspace(files);
    const s = await startAnthropicServer([
      anthropicReply([
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } },
        { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'b.txt' } },
      ], { chunkSize: 3 }),
      anthropicReply([{ type: 'tool_use', id: 'toolu_3', name: 'write_file', input: { path: 'c.txt', content: 'hello\n' } }], { chunkSize: 1 }),
      anthropicReply([{ type: 'text', text: 'Read both, wrote c.txt.' }], { chunkSize: 4 }),
    ]);
    server = s;
    const run = await runCairn(['-p', 'read a.txt read b.txt then write hello to c.txt', '--output-format', 'stream-json', '--provider', 'anthropic', '--allowed-tools', 'Write'], {
      cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: s.url },
    });
    await expectScenario(run, ws.dir);
    // The second request answers both calls in the model's order, in one user message.
    const second = s.requests[1]!.body;
    const results = second.messages.at(-1)!.content;
    expect(results.map((b) => [b['type'], b['tool_use_id']])).toEqual([['tool_result', 'toolu_1'], ['tool_result', 'toolu_2']]);
    expect(JSON.stringify(results[0])).toContain('three');
    expect(second.tools?.map((t) => t.name)).toContain('read_file');
  });

  it('--provider openai', async () => {
    const ws = await tempWorkspace(files);
    const s = await startOpenAIServer([
      openaiReply({ text: 'Reading both.', toolCalls: [
        { id: 'call_1', name: 'read_file', arguments: JSON.stringify({ path: 'a.txt' }) },
        { id: 'call_2', name: 'read_file', arguments: JSON.stringify({ path: 'b.txt' }) },
      ], chunkSize: 1, interleave: true }),
      openaiReply({ toolCalls: [{ id: 'call_3', name: 'write_file', arguments: JSON.stringify({ path: 'c.txt', content: 'hello\n' }) }], chunkSize: 2 }),
      openaiReply({ text: 'Read both, wrote c.txt.', chunkSize: 4 }),
    ]);
    server = s;
    const run = await runCairn(['-p', 'read a.txt read b.txt then write hello to c.txt', '--output-format', 'stream-json', '--provider', 'openai', '--allowed-tools', 'Write'], {
      cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: s.url },
    });
    await expectScenario(run, ws.dir);
    const second = s.requests[1]!.body;
    const tail = second.messages.slice(-2);
    expect(tail.map((m) => [m.role, (m as { tool_call_id?: string }).tool_call_id])).toEqual([['tool', 'call_1'], ['tool', 'call_2']]);
  });

  it('a 401 ends the run with a message that says what to fix, without retrying', async () => {
    const ws = await tempWorkspace(files);
    const { anthropicHttpError } = await import('../helpers/anthropic-server.js');
    const s = await startAnthropicServer([anthropicHttpError(401, 'authentication_error', 'invalid x-api-key')]);
    server = s;
    const run = await runCairn(['-p', 'hello', '--provider', 'anthropic'], { cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'bad', ANTHROPIC_BASE_URL: s.url } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/ANTHROPIC_API_KEY/);
    expect(s.requests).toHaveLength(1);
  });
});
