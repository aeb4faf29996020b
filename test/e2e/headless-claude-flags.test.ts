import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type Script, type ScriptedServer } from '../helpers/anthropic-server.js';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// Claude Code's headless flags through the built binary against a loopback Anthropic server:
// what the server was sent (system prompt, tools, history) and what cairn printed.

// Several runs of the built binary per test: on a loaded machine each can take seconds.
const SLOW = { timeout: 120_000 };
const cairn = (args: string[], opts: Parameters<typeof runCairn>[1]) => runCairn(args, { timeoutMs: 60_000, ...opts });

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function anthropic(script: Script<AnthropicRequestBody>): Promise<ScriptedServer<AnthropicRequestBody>> {
  server = await startAnthropicServer(script);
  return server;
}

const text = (t: string, usage?: { input_tokens?: number; output_tokens?: number }) => anthropicReply([{ type: 'text', text: t }], usage ? { usage } : {});
const env = (url: string) => ({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url });
// Once a tool result has been sent, the closing answer.
const answered = (request: { body: AnthropicRequestBody }): boolean => JSON.stringify(request.body.messages).includes('"tool_result"');
const systemOf = (body: AnthropicRequestBody): string => (body.system ?? []).map((b) => b.text).join('\n');
const json = (stdout: string): Record<string, unknown> => JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
const sessionsDir = (ws: { dir: string; home: string }) => path.join(ws.home, 'projects', ws.dir.replace(/[^A-Za-z0-9]/g, '-'));

describe('--system-prompt and --append-system-prompt', SLOW, () => {
  it('--system-prompt replaces the fixed part; --append-system-prompt ends the prompt', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([text('ok')]);
    const run = await cairn(['-p', 'hi', '--provider', 'anthropic', '--system-prompt', 'You are a terse release bot.', '--append-system-prompt', 'Always answer in French.'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    const system = systemOf(s.requests[0]!.body);
    expect(system.startsWith('You are a terse release bot.')).toBe(true);
    expect(system).not.toContain('You are cairn');
    expect(system).toContain(`Workspace: ${ws.dir}`);
    expect(system.trimEnd().endsWith('Always answer in French.')).toBe(true);
  });

  it('the -file forms read the text from files; without them cairn keeps its own prompt', async () => {
    const ws = await tempWorkspace({ 'sys.txt': 'SYSTEM FROM FILE', 'more.txt': 'APPENDED FROM FILE' });
    const s = await anthropic([text('ok'), text('ok')]);
    await cairn(['-p', 'hi', '--provider', 'anthropic', '--system-prompt-file', 'sys.txt', '--append-system-prompt-file', 'more.txt'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    await cairn(['-p', 'hi', '--provider', 'anthropic'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(systemOf(s.requests[0]!.body)).toMatch(/^SYSTEM FROM FILE[\s\S]*APPENDED FROM FILE\s*$/);
    expect(systemOf(s.requests[1]!.body)).toMatch(/^You are cairn/);
    expect(systemOf(s.requests[1]!.body)).not.toContain('FROM FILE');
  });

  it('a file that cannot be read stops cairn naming the flag and the file', async () => {
    const ws = await tempWorkspace();
    const run = await cairn(['-p', 'hi', '--append-system-prompt-file', 'missing.txt'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--append-system-prompt-file: cannot read ${path.join(ws.dir, 'missing.txt')}`);
  });
});

describe('--tools', SLOW, () => {
  it("offers only the named tools, Claude Code's names mapped to cairn's", async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([text('ok'), text('ok')]);
    const run = await cairn(['-p', 'hi', '--provider', 'anthropic', '--tools', 'Read,Bash'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    expect(s.requests[0]!.body.tools?.map((t) => t.name)).toEqual(['read_file', 'bash']);
    // "" offers none
    await cairn(['-p', 'hi', '--provider', 'anthropic', '--tools', ''], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(s.requests[1]!.body.tools ?? []).toEqual([]);
  });
});

describe('--add-dir', SLOW, () => {
  it('a folder outside the workspace becomes writable like the workspace; without the flag the write is denied', async () => {
    const ws = await tempWorkspace();
    const outside = await fs.mkdtemp(path.join(path.dirname(ws.dir), 'extra-'));
    const readIt = (request: { body: AnthropicRequestBody }) =>
      answered(request) ? text('done') : anthropicReply([{ type: 'tool_use', id: 'toolu_1', name: 'write_file', input: { path: path.join(outside, 'new.txt'), content: 'written by the model\n' } }]);
    const s = await anthropic(readIt);
    // acceptEdits: edits in the workspace run unasked; outside it they are asked, so denied headless.
    const args = ['-p', 'write the notes', '--provider', 'anthropic', '--output-format', 'stream-json', '--permission-mode', 'acceptEdits'];
    const denied = await cairn(args, { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(ofType(denied.events, 'permission_denied')).toHaveLength(1);
    await expect(fs.access(path.join(outside, 'new.txt'))).rejects.toThrow();
    const allowed = await cairn([...args, '--add-dir', outside], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(ofType(allowed.events, 'permission_denied')).toHaveLength(0);
    expect(await fs.readFile(path.join(outside, 'new.txt'), 'utf8')).toBe('written by the model\n');
  });

  it('a folder that does not exist stops cairn', async () => {
    const ws = await tempWorkspace();
    const run = await cairn(['-p', 'hi', '--add-dir', 'nope'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--add-dir: ${path.join(ws.dir, 'nope')}: no such folder`);
  });
});

describe('--settings', SLOW, () => {
  const echo = (request: { body: AnthropicRequestBody }) => (answered(request) ? text('done') : anthropicReply([{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'echo hello' } }]));

  it('a JSON object is one more settings layer: its deny rule holds even in bypassPermissions', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic(echo);
    const run = await cairn(['-p', 'say hello', '--provider', 'anthropic', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions', '--settings', '{"permissions":{"deny":["Bash(echo:*)"]}}'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    expect(ofType(run.events, 'permission_denied')).toHaveLength(1);
    expect(ofType(run.events, 'tool_result')[0]!.content).not.toMatch(/^hello/);
  });

  it("a file is trusted as the user's own: its allow rule applies in a folder that is not trusted", async () => {
    const ws = await tempWorkspace({ 'my-settings.json': JSON.stringify({ permissions: { allow: ['Bash(node:*)'] } }) });
    const node = (request: { body: AnthropicRequestBody }) =>
      answered(request) ? text('done') : anthropicReply([{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'node -e "console.log(40 + 2)"' } }]);
    // The same rule in the folder's own settings waits for trust: asked, so denied headless.
    await fs.mkdir(path.join(ws.dir, '.cairn'));
    await fs.writeFile(path.join(ws.dir, '.cairn', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(node:*)'] } }));
    const s = await anthropic(node);
    // Where the rule comes from decides, not the sandbox's own yes to a workspace command.
    const args = ['-p', 'say hello', '--provider', 'anthropic', '--output-format', 'stream-json', '--no-sandbox'];
    const untrusted = await cairn(args, { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(ofType(untrusted.events, 'permission_denied')).toHaveLength(1);
    const run = await cairn([...args, '--settings', 'my-settings.json'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    expect(ofType(run.events, 'permission_denied')).toHaveLength(0);
    expect(ofType(run.events, 'tool_result')[0]!.content).toContain('42');
  });

  it('bad JSON or a missing file stops cairn naming the flag', async () => {
    const ws = await tempWorkspace();
    const bad = await cairn(['-p', 'hi', '--settings', '{"permissions": '], { cwd: ws.dir, home: ws.home });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--settings: invalid JSON/);
    const missing = await cairn(['-p', 'hi', '--settings', 'none.json'], { cwd: ws.dir, home: ws.home });
    expect(missing.stderr).toContain(`--settings: ${path.join(ws.dir, 'none.json')}: no such file`);
  });
});

describe('--session-id, --name and --fork-session', SLOW, () => {
  it('--session-id is the session id in the result and the session file; an id in use is refused', async () => {
    const ws = await tempWorkspace();
    const id = '123e4567-e89b-12d3-a456-426614174000';
    const s = await anthropic([text('first')]);
    const run = await cairn(['-p', 'hi', '--provider', 'anthropic', '--output-format', 'json', '--session-id', id], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(json(run.stdout)['session_id']).toBe(id);
    await fs.access(path.join(sessionsDir(ws), `${id}.jsonl`));
    const again = await cairn(['-p', 'hi', '--provider', 'anthropic', '--session-id', id], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`a session with the id ${id} exists already; continue it with --resume ${id}`);
    const bad = await cairn(['-p', 'hi', '--session-id', 'not-a-uuid'], { cwd: ws.dir, home: ws.home });
    expect(bad.code).toBe(2);
  });

  it('-n names the session: --resume NAME continues it', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([text('first answer'), text('second answer')]);
    const first = await cairn(['-p', 'remember the word kiwi', '--provider', 'anthropic', '--output-format', 'json', '-n', 'fruit-review'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    const second = await cairn(['-p', 'what was the word?', '--provider', 'anthropic', '--output-format', 'json', '--resume', 'fruit-review'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(json(second.stdout)['session_id']).toBe(json(first.stdout)['session_id']);
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain('remember the word kiwi');
  });

  it('--fork-session continues the history under a new id; the old session file is untouched', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([text('one'), text('two'), text('three')]);
    const first = await cairn(['-p', 'first prompt', '--provider', 'anthropic', '--output-format', 'json'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    const oldId = String(json(first.stdout)['session_id']);
    const oldFile = path.join(sessionsDir(ws), `${oldId}.jsonl`);
    const before = await fs.readFile(oldFile, 'utf8');
    const fork = await cairn(['-p', 'second prompt', '--provider', 'anthropic', '--output-format', 'json', '--resume', oldId, '--fork-session'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    const forkId = String(json(fork.stdout)['session_id']);
    expect(forkId).not.toBe(oldId);
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain('first prompt');
    expect(await fs.readFile(oldFile, 'utf8')).toBe(before);
    // The fork resumes whole on its own: both prompts are in its history.
    await cairn(['-p', 'third prompt', '--provider', 'anthropic', '--resume', forkId], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    const third = JSON.stringify(s.requests[2]!.body.messages);
    expect(third).toContain('first prompt');
    expect(third).toContain('second prompt');
    const alone = await cairn(['-p', 'x', '--fork-session'], { cwd: ws.dir, home: ws.home });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--fork-session goes with -c or --resume');
  });
});

describe('--max-budget-usd', SLOW, () => {
  // claude-fable-5 costs $10 per million input tokens: each call here reports 30,000 (about $0.30).
  const costly = (_request: unknown, i: number) =>
    anthropicReply([{ type: 'tool_use', id: `toolu_${i}`, name: 'bash', input: { command: 'echo step' } }], { usage: { input_tokens: 30_000, output_tokens: 20 } });

  it('warns at 80% and stops before the call that would pass the cap: subtype error_max_budget_usd, session kept', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic(costly);
    const run = await cairn(['-p', 'keep working', '--provider', 'anthropic', '--model', 'claude-fable-5', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions', '--max-budget-usd', '1'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    // $0.30, $0.60, $0.90 (the 80% warning), $1.20: the fifth call is not made.
    expect(s.requests).toHaveLength(4);
    const warnings = ofType(run.events, 'notice').filter((n) => n.code === 'spend_cap');
    expect(warnings.map((n) => n.message)).toEqual([expect.stringMatching(/^Spent \$0\.90 of the \$1\.00 spending cap \(90%, --max-budget-usd\)/)]);
    const result = json(run.stdout);
    expect(result).toMatchObject({ type: 'result', subtype: 'error_max_budget_usd', is_error: true, reason: 'max_budget' });
    expect(String((result['errors'] as string[])[0])).toMatch(/^Spending cap reached: \$1\.20 spent, cap \$1\.00 \(--max-budget-usd\)\. Stopped before the next model call; the session is kept/);
    expect(run.code).toBe(1);
    await fs.access(path.join(sessionsDir(ws), `${String(result['session_id'])}.jsonl`));
  });

  it('maxBudgetUsd in the user settings stops a run the same way', async () => {
    const ws = await tempWorkspace();
    await fs.writeFile(path.join(ws.home, 'settings.json'), JSON.stringify({ maxBudgetUsd: 0.5 }));
    const s = await anthropic(costly);
    const run = await cairn(['-p', 'keep working', '--provider', 'anthropic', '--model', 'claude-fable-5', '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(s.requests).toHaveLength(2);
    expect(json(run.stdout)['subtype']).toBe('error_max_budget_usd');
    expect(run.stderr).toContain(`maxBudgetUsd in ${path.join(ws.home, 'settings.json')}`);
  });
});

describe('--json-schema', SLOW, () => {
  const schema = JSON.stringify({ type: 'object', properties: { functions: { type: 'array', items: { type: 'string' } } }, required: ['functions'] });

  it('the answer is checked and returned as structured_output; a mismatch is sent back once', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([text('Here are the functions: login, logout'), text('{"functions": ["login", "logout"]}')]);
    const run = await cairn(['-p', 'Extract the main function names from auth.py', '--provider', 'anthropic', '--output-format', 'json', '--json-schema', schema], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    const result = json(run.stdout);
    expect(result['structured_output']).toEqual({ functions: ['login', 'logout'] });
    expect(result['subtype']).toBe('success');
    expect(systemOf(s.requests[0]!.body)).toContain(schema);
    expect(JSON.stringify(s.requests[1]!.body.messages.at(-1))).toContain('the answer is not JSON');
  });

  it('a second mismatch ends in an error result naming the problem', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([text('{"functions": "login"}'), text('{"functions": [1]}')]);
    const run = await cairn(['-p', 'Extract the function names', '--provider', 'anthropic', '--output-format', 'json', '--json-schema', schema], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(1);
    const result = json(run.stdout);
    expect(result).toMatchObject({ subtype: 'error_max_structured_output_retries', is_error: true });
    expect(String((result['errors'] as string[])[0])).toMatch(/--json-schema: the JSON does not match the schema at functions\.0/);
    expect(s.requests).toHaveLength(2);
  });
});

describe('--include-partial-messages', SLOW, () => {
  it("stream-json carries Claude Code's stream_event lines with the raw text deltas", async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([anthropicReply([{ type: 'text', text: 'Recursion is a function calling itself.' }], { chunkSize: 7 })]);
    const run = await cairn(['-p', 'Explain recursion', '--provider', 'anthropic', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; event?: { type: string; delta?: { type: string; text?: string } } });
    const events = lines.filter((l) => l.type === 'stream_event').map((l) => l.event!);
    expect(events[0]!.type).toBe('message_start');
    expect(events.at(-1)!.type).toBe('message_stop');
    const deltas = events.filter((e) => e.delta?.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.delta!.text).join('')).toBe('Recursion is a function calling itself.');
    // Without the flag there are none.
    const plain = await cairn(['-p', 'Explain recursion', '--output-format', 'stream-json', '--verbose'], { cwd: ws.dir, home: ws.home });
    expect(plain.stdout).not.toContain('"stream_event"');
  });
});

describe('flags cairn does not take', SLOW, () => {
  it('a deliberately unsupported flag says so and why; an unknown one fails with the one-line message', async () => {
    const ws = await tempWorkspace();
    const ide = await cairn(['-p', 'hi', '--ide'], { cwd: ws.dir, home: ws.home });
    expect(ide.code).toBe(2);
    expect(ide.stderr).toMatch(/^cairn: --ide is not supported: cairn does not connect to IDE extensions/);
    const chrome = await cairn(['--chrome'], { cwd: ws.dir, home: ws.home });
    expect(chrome.stderr).toMatch(/^cairn: --chrome is not supported: /);
    const unknown = await cairn(['-p', 'hi', '--frobnicate'], { cwd: ws.dir, home: ws.home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^cairn: Unknown option '--frobnicate'/);
  });

  it('--help lists every flag, grouped, with serve', async () => {
    const ws = await tempWorkspace();
    const help = await cairn(['--help'], { cwd: ws.dir, home: ws.home });
    for (const flag of ['--verbose', '--include-partial-messages', '--system-prompt', '--append-system-prompt', '--json-schema', '--max-budget-usd', '--add-dir', '--settings', '--tools', '--agents', '--session-id', '--name', '--fork-session', '--fallback-model', '--effort']) {
      expect(help.stdout).toContain(flag);
    }
    expect(help.stdout).toMatch(/^ {2}cairn serve /m);
    expect(help.stdout).toMatch(/^System prompt:$/m);
    expect(help.stdout).toMatch(/^Sessions:$/m);
  });
});
