import { describe, expect, it } from 'vitest';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// A script written for `claude -p --output-format json|stream-json` reads these fields; the built
// cairn on the offline model must print them (issue 15).
const lines = (stdout: string): Array<Record<string, unknown>> =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const CLAUDE_RESULT_FIELDS = ['type', 'subtype', 'is_error', 'result', 'session_id', 'num_turns', 'duration_ms', 'usage', 'total_cost_usd', 'permission_denials'];

describe("headless output in Claude Code's shape", () => {
  it('--output-format json: one result object with Claude Code\'s fields and cairn\'s own', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', 'hello', '--output-format', 'json'], { cwd: ws.dir, home: ws.home });
    expect(run.code, run.stderr).toBe(0);
    const out = lines(run.stdout);
    expect(out).toHaveLength(1);
    const result = out[0]!;
    for (const field of CLAUDE_RESULT_FIELDS) expect(result, field).toHaveProperty(field);
    expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, reason: 'completed', permission_denials: [] });
    expect(typeof result['result']).toBe('string');
    expect(result['session_id']).toMatch(/^[0-9a-f-]{8,}/);
    expect(result['num_turns']).toBeGreaterThanOrEqual(1);
    expect(Object.keys(result['usage'] as object).sort()).toEqual(['cache_creation_input_tokens', 'cache_read_input_tokens', 'input_tokens', 'output_tokens']);
  });

  it('stream-json: a system/init line first, cairn\'s events between, the result line last; a denial is listed with its input', async () => {
    const ws = await tempWorkspace();
    // --no-sandbox: with the sandbox on, a workspace command runs without asking and nothing is denied.
    const run = await runCairn(['-p', 'run touch made.txt', '--output-format', 'stream-json', '--no-sandbox'], { cwd: ws.dir, home: ws.home });
    expect(run.code, run.stderr).toBe(0);
    const out = lines(run.stdout);
    const init = out[0]!;
    expect(init).toMatchObject({ type: 'system', subtype: 'init', cwd: ws.dir, permissionMode: 'default' });
    expect(init['tools']).toEqual(expect.arrayContaining(['bash', 'read_file']));
    expect(typeof init['model']).toBe('string');
    expect(out[1]).toMatchObject({ type: 'session_start', session_id: init['session_id'] });
    const last = out.at(-1)!;
    expect(last).toMatchObject({ type: 'result', subtype: 'success', session_id: init['session_id'] });
    expect(last['permission_denials']).toEqual([{ tool_name: 'bash', tool_use_id: expect.any(String), tool_input: { command: 'touch made.txt' } }]);
    // cairn's own events are between, still parseable as cairn events (run-cairn skips the two envelopes)
    expect(run.events.map((e) => e.type)).toContain('permission_denied');
  });

  it('--input-format stream-json: each user message on stdin is a turn of one session, each ending with a result line', async () => {
    const ws = await tempWorkspace();
    const stdin = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'first question' } }),
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'second question' }] } }),
      '',
    ].join('\n');
    const run = await runCairn(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, stdin });
    expect(run.code, run.stderr).toBe(0);
    const out = lines(run.stdout);
    const results = out.filter((l) => l['type'] === 'result');
    expect(results).toHaveLength(2);
    expect(new Set(results.map((r) => r['session_id']))).toEqual(new Set([out[0]!['session_id']]));
    expect(run.events.filter((e) => e.type === 'user_prompt').map((e) => (e as { text: string }).text)).toEqual(['first question', 'second question']);
  });

  it('a stdin line that is not a user message stops the run, naming the line; the exit code says so', async () => {
    const ws = await tempWorkspace();
    const stdin = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n{"type":"assistant"}\n`;
    const run = await runCairn(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, stdin });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('stdin line 2: expected {"type":"user",...}, got type "assistant"');
    expect(lines(run.stdout).filter((l) => l['type'] === 'result')).toHaveLength(1);
  });

  it('--input-format stream-json without stream-json output is refused, as in Claude Code', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', '--input-format', 'stream-json'], { cwd: ws.dir, home: ws.home, stdin: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--input-format stream-json needs --output-format stream-json');
  });
});
