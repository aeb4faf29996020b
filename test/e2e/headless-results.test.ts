import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type ScriptedServer } from '../helpers/anthropic-server.js';
import { ofType } from '../helpers/collect.js';
import { openaiReply, startOpenAIServer } from '../helpers/openai-server.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// What `cairn -p` reports about how a run ended and which session it was, in every output
// format, through the built binary against loopback servers that speak each protocol.

let server: ScriptedServer<unknown> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cut = (text: string) => anthropicReply([{ type: 'text', text }], { stopReason: 'max_tokens', usage: { input_tokens: 100, output_tokens: 16_384 } });

async function anthropic(replies: Parameters<typeof startAnthropicServer>[0]) {
  const s = await startAnthropicServer(replies);
  server = s;
  return s;
}

const anthropicEnv = (url: string) => ({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url });
const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

describe('an answer cut at the output limit (max_tokens)', () => {
  it('text: the partial answer on stdout, max_tokens as the reason on stderr, a non-zero exit', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([cut('The first half of a long answ')]);
    const run = await runCairn(['-p', 'explain everything', '--provider', 'anthropic'], { cwd: ws.dir, home: ws.home, env: anthropicEnv(s.url) });
    expect(run.stdout).toBe('The first half of a long answ\n');
    expect(lastLine(run.stderr)).toMatch(/^cairn: max_tokens: Answer cut at the output limit \(16384 output tokens\)/);
    expect(run.code).toBe(1);
  });

  it('json: reason max_tokens (not completed), the partial result, exit 1', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([cut('The first half')]);
    const run = await runCairn(['-p', 'explain everything', '--provider', 'anthropic', '--output-format', 'json'], { cwd: ws.dir, home: ws.home, env: anthropicEnv(s.url) });
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ type: 'result', reason: 'max_tokens', result: 'The first half' });
    expect(String(result['error'])).toMatch(/cut at the output limit/);
    expect(run.code).toBe(1);
  });

  it('stream-json: the terminal event says max_tokens', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([cut('The first half')]);
    const run = await runCairn(['-p', 'explain everything', '--provider', 'anthropic', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: anthropicEnv(s.url) });
    expect(ofType(run.events, 'terminal')[0]).toMatchObject({ reason: 'max_tokens', result: 'The first half' });
    expect(run.code).toBe(1);
  });

  it('openai: finish_reason "length" is the same stop', async () => {
    const ws = await tempWorkspace();
    const s = await startOpenAIServer([openaiReply({ text: 'Half an ans', finishReason: 'length' })]);
    server = s;
    const run = await runCairn(['-p', 'explain everything', '--provider', 'openai', '--output-format', 'json'], {
      cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: s.url },
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ reason: 'max_tokens', result: 'Half an ans' });
    expect(run.code).toBe(1);
  });

  it('with continueOnMaxTokens in config.json the model is asked once to go on, and the answer is whole', async () => {
    const ws = await tempWorkspace();
    await fs.writeFile(path.join(ws.home, 'config.json'), JSON.stringify({ continueOnMaxTokens: true }));
    const s = await anthropic([cut('The first half, '), anthropicReply([{ type: 'text', text: 'and the second.' }])]);
    const run = await runCairn(['-p', 'explain everything', '--provider', 'anthropic', '--output-format', 'json'], { cwd: ws.dir, home: ws.home, env: anthropicEnv(s.url) });
    expect(JSON.parse(run.stdout)).toMatchObject({ reason: 'completed', result: 'The first half, and the second.' });
    expect(run.code).toBe(0);
    // The second request carries the cut answer and asks to continue it.
    const second = s.requests[1]!.body;
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(second.messages[1])).toContain('The first half, ');
    expect(JSON.stringify(second.messages[2])).toMatch(/cut off at the output limit/);
  });

  it('it continues only once: a second cut ends the run with max_tokens', async () => {
    const ws = await tempWorkspace();
    await fs.writeFile(path.join(ws.home, 'config.json'), JSON.stringify({ continueOnMaxTokens: true }));
    const s = await anthropic([cut('One, '), cut('two, '), anthropicReply([{ type: 'text', text: 'never asked for' }])]);
    const run = await runCairn(['-p', 'explain everything', '--provider', 'anthropic', '--output-format', 'json'], { cwd: ws.dir, home: ws.home, env: anthropicEnv(s.url) });
    expect(JSON.parse(run.stdout)).toMatchObject({ reason: 'max_tokens', result: 'One, two, ' });
    expect(s.requests).toHaveLength(2);
    expect(run.code).toBe(1);
  });
});

describe('the session id, in every output format, and --resume by a prefix of it', () => {
  it('json, stream-json and text each name the session; --resume <8 characters> continues it', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const json = await runCairn(['-p', 'read a.txt', '--output-format', 'json'], { cwd: ws.dir, home: ws.home });
    expect(json.code).toBe(0);
    const id = String((JSON.parse(json.stdout) as { session_id?: unknown }).session_id);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await fs.access(path.join(ws.home, 'projects', ws.dir.replace(/[^A-Za-z0-9]/g, '-'), `${id}.jsonl`));

    // The 8 characters /sessions shows are enough.
    const stream = await runCairn(['-p', 'read b.txt', '--resume', id.slice(0, 8), '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(stream.code, stream.stderr).toBe(0);
    expect(ofType(stream.events, 'session_start')[0]?.session_id).toBe(id);
    // It is the same conversation: the first prompt is in its history.
    const terminal = ofType(stream.events, 'terminal')[0]!;
    expect(terminal.reason).toBe('completed');
    expect(JSON.stringify(terminal.messages[0])).toContain('read a.txt');

    const text = await runCairn(['-p', 'read a.txt', '--resume', id.slice(0, 12)], { cwd: ws.dir, home: ws.home });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(`cairn --resume ${id}`);
    expect(text.stdout).not.toContain(id);
  });

  it('an ambiguous prefix is refused, naming the sessions it matches; a unique one is taken', async () => {
    const ws = await tempWorkspace();
    const dir = path.join(ws.home, 'projects', ws.dir.replace(/[^A-Za-z0-9]/g, '-'));
    await fs.mkdir(dir, { recursive: true });
    const ids = ['abc11111-0000-4000-8000-000000000001', 'abc22222-0000-4000-8000-000000000002'];
    for (const id of ids) {
      const header = { type: 'session_header', version: 1, id, cwd: ws.dir, created: '2026-11-30T00:00:00.000Z' };
      await fs.writeFile(path.join(dir, `${id}.jsonl`), `${JSON.stringify(header)}\n${JSON.stringify({ type: 'user_prompt', text: `hello ${id}` })}\n`);
    }
    // Sessions are listed newest first: make abc11111 the newer, so the order does not hang on two writes' timestamps.
    await fs.utimes(path.join(dir, `${ids[0]}.jsonl`), new Date('2026-11-30T02:00:00Z'), new Date('2026-11-30T02:00:00Z'));
    await fs.utimes(path.join(dir, `${ids[1]}.jsonl`), new Date('2026-11-30T01:00:00Z'), new Date('2026-11-30T01:00:00Z'));
    const ambiguous = await runCairn(['-p', 'hi', '--resume', 'abc'], { cwd: ws.dir, home: ws.home });
    expect(ambiguous.code).not.toBe(0);
    expect(ambiguous.stderr).toMatch(/--resume: "abc" matches 2 sessions \(abc11111, abc22222\)/);
    const unique = await runCairn(['-p', 'hi', '--resume', 'abc2', '--output-format', 'json'], { cwd: ws.dir, home: ws.home });
    expect(unique.code, unique.stderr).toBe(0);
    expect(JSON.parse(unique.stdout)).toMatchObject({ session_id: ids[1] });
  });
});
