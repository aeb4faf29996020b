import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type RecordedRequest, type ScriptedServer } from '../helpers/anthropic-server.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';

// The command lines of Claude Code's "Run Claude Code programmatically" page (code.claude.com/docs/en/headless),
// each kept exactly as written there, run by real bash with `claude` standing for cairn, against a loopback
// Anthropic server. What a script written for Claude Code gets is what it gets from cairn.

const run = promisify(execFile);
const SLOW = { timeout: 180_000 };

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Request = RecordedRequest<AnthropicRequestBody>;
const text = (t: string) => anthropicReply([{ type: 'text', text: t }]);
const toolUse = (id: string, name: string, input: unknown) => anthropicReply([{ type: 'tool_use', id, name, input }], { stopReason: 'tool_use' });
const toolResults = (r: Request): number => r.body.messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result').length;
const firstPrompt = (r: Request): string => JSON.stringify(r.body.messages[0]?.content ?? []);
const systemOf = (r: Request): string => (r.body.system ?? []).map((b) => b.text).join('\n');

/** Runs a bash script in which `claude` is cairn (the built bin) talking to the server; returns stdout. */
async function claudeScript(script: string, ws: { dir: string; home: string }, url: string): Promise<string> {
  const prelude = `claude() { "${process.execPath}" "${cairnBin}" "$@"; }\nset -euo pipefail\n`;
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url };
  for (const key of ['OPENAI_API_KEY', 'DEEPSEEK_API_KEY', 'CAIRN_PROVIDER', 'CAIRN_MODEL']) delete env[key];
  // stdin from /dev/null, as a script run from a terminal or CI has it (an open pipe is test/src/headless-stdin.test.ts's).
  const child = spawn('bash', ['-c', prelude + script], { cwd: ws.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`bash exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
  return stdout;
}

async function serve(script: (r: Request) => ReturnType<typeof text>): Promise<ScriptedServer<AnthropicRequestBody>> {
  server = await startAnthropicServer((r) => script(r));
  return server;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await run('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd })).stdout;
}

describe("Claude Code's documented headless command lines, run with cairn", SLOW, () => {
  it('-p with --allowedTools "Read,Edit,Bash": the edit runs without asking and the answer is printed', async () => {
    const ws = await tempWorkspace({ 'auth.py': 'def login(user):\n    return user.password = None\n' });
    const s = await serve((r) =>
      [
        toolUse('t1', 'read_file', { path: 'auth.py' }),
        toolUse('t2', 'edit_file', { path: 'auth.py', old_string: 'return user.password = None', new_string: 'return user.password is None' }),
        text('Fixed the comparison in login.'),
      ][toolResults(r)] ?? text('done'),
    );
    const out = await claudeScript(`claude -p "Find and fix the bug in auth.py" --allowedTools "Read,Edit,Bash"`, ws, s.url);
    expect(out.trim()).toBe('Fixed the comparison in login.');
    expect(await fs.readFile(path.join(ws.dir, 'auth.py'), 'utf8')).toContain('return user.password is None');
    expect(firstPrompt(s.requests[0]!)).toContain('Find and fix the bug in auth.py');
  });

  it('a plain question prints the answer', async () => {
    const ws = await tempWorkspace();
    const s = await serve(() => text('It checks passwords.'));
    const out = await claudeScript(`claude -p "What does the auth module do?"`, ws, s.url);
    expect(out.trim()).toBe('It checks passwords.');
  });

  it("--output-format json piped to jq -r '.result' gives the answer's text", async () => {
    const ws = await tempWorkspace();
    const s = await serve(() => text('A small CLI.'));
    const out = await claudeScript(`claude -p "Summarize this project" --output-format json | jq -r '.result'`, ws, s.url);
    expect(out).toBe('A small CLI.\n');
  });

  it("--json-schema piped to jq '.structured_output' gives the validated object", async () => {
    const ws = await tempWorkspace();
    const s = await serve(() => text('{"functions":["login","logout"]}'));
    const out = await claudeScript(
      `claude -p "Extract function names from auth.py" \\
  --output-format json \\
  --json-schema '{"type":"object","properties":{"functions":{"type":"array","items":{"type":"string"}}}}' \\
  | jq '.structured_output'`,
      ws,
      s.url,
    );
    expect(JSON.parse(out)).toEqual({ functions: ['login', 'logout'] });
  });

  it('stream-json --verbose --include-partial-messages through the jq filter prints the text as it streams', async () => {
    const ws = await tempWorkspace();
    const poem = 'Roses compile,\nviolets lint,\ntests all pass\nin the first sprint.';
    server = await startAnthropicServer([anthropicReply([{ type: 'text', text: poem }], { chunkSize: 6 })]);
    const out = await claudeScript(
      `claude -p "Write a poem" --output-format stream-json --verbose --include-partial-messages | \\
  jq -rj 'select(.type == "stream_event" and .event.delta.type? == "text_delta") | .event.delta.text'`,
      ws,
      server.url,
    );
    expect(out).toBe(poem);
  });

  it('--allowedTools with "Bash(git diff *)"-style rules: the staged change is committed', async () => {
    const ws = await tempWorkspace({ 'greet.txt': 'hello\n' });
    await git(ws.dir, 'init', '-q');
    await git(ws.dir, 'add', 'greet.txt');
    await git(ws.dir, 'commit', '-qm', 'first');
    await fs.writeFile(path.join(ws.dir, 'greet.txt'), 'hello, world\n');
    await git(ws.dir, 'add', 'greet.txt');
    const s = await serve((r) =>
      [
        toolUse('t1', 'bash', { command: 'git diff --staged' }),
        toolUse('t2', 'bash', { command: 'git -c user.name=T -c user.email=t@example.com commit -m "Greet the world"' }),
        text('Committed.'),
      ][toolResults(r)] ?? text('done'),
    );
    const out = await claudeScript(
      `claude -p "Look at my staged changes and create an appropriate commit" \\
  --allowedTools "Bash(git diff *),Bash(git log *),Bash(git status *),Bash(git commit *)"`,
      ws,
      s.url,
    );
    expect(out.trim()).toBe('Committed.');
    expect(await git(ws.dir, 'log', '--format=%s', '-1')).toBe('Greet the world\n');
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain('+hello, world');
  });

  it('a diff piped in with --append-system-prompt and --output-format json: both reach the model, JSON comes back', async () => {
    const ws = await tempWorkspace();
    const s = await serve(() => text('No vulnerabilities found.'));
    // Claude Code's example pipes `gh pr diff "$1"`; here the diff comes from printf, the claude part is as written.
    const out = await claudeScript(
      `printf 'diff --git a/db.py b/db.py\\n+query = "SELECT * FROM users WHERE id=" + user_id\\n' | claude -p \\
  --append-system-prompt "You are a security engineer. Review for vulnerabilities." \\
  --output-format json`,
      ws,
      s.url,
    );
    const result = JSON.parse(out) as { type: string; subtype: string; result: string; session_id: string };
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'No vulnerabilities found.' });
    expect(systemOf(s.requests[0]!)).toMatch(/You are a security engineer\. Review for vulnerabilities\.\s*$/);
    expect(firstPrompt(s.requests[0]!)).toContain('SELECT * FROM users WHERE id=');
  });

  it('--continue twice: the third request carries the whole conversation', async () => {
    const ws = await tempWorkspace();
    let n = 0;
    const s = await serve(() => text(`answer ${++n}`));
    const out = await claudeScript(
      `# First request
claude -p "Review this codebase for performance issues"

# Continue the most recent conversation
claude -p "Now focus on the database queries" --continue
claude -p "Generate a summary of all issues found" --continue`,
      ws,
      s.url,
    );
    expect(out.trim().split('\n')).toEqual(['answer 1', 'answer 2', 'answer 3']);
    const third = JSON.stringify(s.requests[2]!.body.messages);
    for (const said of ['Review this codebase for performance issues', 'answer 1', 'Now focus on the database queries', 'answer 2', 'Generate a summary of all issues found']) {
      expect(third).toContain(said);
    }
  });

  it("the session id from --output-format json resumes with --resume \"$session_id\"", async () => {
    const ws = await tempWorkspace();
    const s = await serve((r) => text(r.body.messages.length > 1 ? 'Continuing.' : 'Started.'));
    const out = await claudeScript(
      `session_id=$(claude -p "Start a review" --output-format json | jq -r '.session_id')
claude -p "Continue that review" --resume "$session_id"`,
      ws,
      s.url,
    );
    expect(out.trim()).toBe('Continuing.');
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain('Start a review');
  });
});
