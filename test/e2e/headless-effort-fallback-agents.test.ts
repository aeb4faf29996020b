import { afterEach, describe, expect, it } from 'vitest';
import { anthropicHttpError, anthropicReply, startAnthropicServer, type AnthropicRequestBody, type Script, type ScriptedServer } from '../helpers/anthropic-server.js';
import { openaiReply, startOpenAIServer } from '../helpers/openai-server.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// --effort, --fallback-model and --agents through the built binary against loopback protocol
// servers: what the server was sent (thinking, reasoning_effort, model, system prompt, tools).

const SLOW = { timeout: 120_000 };
const cairn = (args: string[], opts: Parameters<typeof runCairn>[1]) => runCairn(args, { timeoutMs: 60_000, ...opts });

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function anthropic(script: Script<AnthropicRequestBody>): Promise<ScriptedServer<AnthropicRequestBody>> {
  const server = await startAnthropicServer(script);
  servers.push(server);
  return server;
}

const text = (t: string) => anthropicReply([{ type: 'text', text: t }]);
const env = (url: string) => ({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url });
// The API's overload answer; retry-after-ms 0 keeps the retries quick.
const overloaded = () => anthropicHttpError(529, 'overloaded_error', 'Overloaded', { 'retry-after-ms': '0' });
const systemOf = (body: AnthropicRequestBody): string => (body.system ?? []).map((b) => b.text).join('\n');

describe('--effort', SLOW, () => {
  it("sets Anthropic's thinking budget by level; without it no thinking is asked for", async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([text('ok'), text('ok'), text('ok')]);
    const opts = { cwd: ws.dir, home: ws.home, env: env(s.url) };
    expect((await cairn(['-p', 'hi', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--effort', 'high'], opts)).code).toBe(0);
    await cairn(['-p', 'hi', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--effort', 'low'], opts);
    await cairn(['-p', 'hi', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5'], opts);
    expect(s.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 10_000 });
    expect(s.requests[0]!.body.max_tokens).toBeGreaterThan(10_000);
    expect(s.requests[1]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(s.requests[2]!.body.thinking).toBeUndefined();
  });

  it('a Claude model without extended thinking, and the offline model, go on without it and say so', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([text('ok')]);
    const run = await cairn(['-p', 'hi', '--provider', 'anthropic', '--model', 'claude-3-5-haiku-20241022', '--effort', 'max'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    expect(s.requests[0]!.body.thinking).toBeUndefined();
    expect(run.stderr).toContain('cairn: --effort max is ignored: claude-3-5-haiku-20241022 has no extended thinking');
    const offline = await cairn(['-p', 'hi', '--provider', 'offline', '--effort', 'low'], { cwd: ws.dir, home: ws.home });
    expect(offline.code).toBe(0);
    expect(offline.stderr).toContain('cairn: --effort low is ignored: the offline model does not think');
  });

  it('sends reasoning_effort to an OpenAI-compatible reasoning model, and not to one without reasoning', async () => {
    const ws = await tempWorkspace();
    const s = await startOpenAIServer([openaiReply({ text: 'ok' }), openaiReply({ text: 'ok' }), openaiReply({ text: 'ok' })]);
    servers.push(s);
    const opts = { cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: s.url } };
    expect((await cairn(['-p', 'hi', '--provider', 'openai', '--model', 'o4-mini', '--effort', 'medium'], opts)).code).toBe(0);
    const xhigh = await cairn(['-p', 'hi', '--provider', 'openai', '--model', 'gpt-5', '--effort', 'xhigh'], opts);
    const plain = await cairn(['-p', 'hi', '--provider', 'openai', '--model', 'gpt-4o', '--effort', 'high'], opts);
    expect(s.requests[0]!.body.reasoning_effort).toBe('medium');
    expect(s.requests[1]!.body.reasoning_effort).toBe('high');
    expect(xhigh.stderr).toContain('--effort xhigh is sent as reasoning_effort high');
    expect(s.requests[2]!.body).not.toHaveProperty('reasoning_effort');
    expect(plain.stderr).toContain("--effort high is ignored: openai's model gpt-4o takes no reasoning effort");
  });

  it('a level cairn does not know stops it naming the levels', async () => {
    const ws = await tempWorkspace();
    const bad = await cairn(['-p', 'hi', '--effort', 'extreme'], { cwd: ws.dir, home: ws.home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--effort: expected one of low, medium, high, xhigh, max, got "extreme"');
  });
});

describe('--fallback-model', SLOW, () => {
  it('after the retries on an overloaded model run out, the call is made with the fallback model, which the session keeps', async () => {
    const ws = await tempWorkspace({ 'notes.txt': 'NOTES-CONTENT' });
    const s = await anthropic([
      overloaded(), overloaded(), overloaded(),
      anthropicReply([{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }]),
      text('The notes say NOTES-CONTENT.'),
    ]);
    const run = await cairn(['-p', 'read notes.txt', '--provider', 'anthropic', '--model', 'claude-opus-4-1', '--fallback-model', 'claude-haiku-4-5'], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    expect(s.requests.map((r) => r.body.model)).toEqual(['claude-opus-4-1', 'claude-opus-4-1', 'claude-opus-4-1', 'claude-haiku-4-5', 'claude-haiku-4-5']);
    expect(run.stderr).toMatch(/overloaded \(529\).*\(gave up after 3 attempts\); switching to the fallback model claude-haiku-4-5 \(--fallback-model\)/);
    expect(run.stdout).toContain('The notes say NOTES-CONTENT.');
  });

  it('without it the overloaded call fails the run; a bad request is not a reason to fall back', async () => {
    const ws = await tempWorkspace();
    const s = await anthropic([overloaded(), overloaded(), overloaded(), anthropicHttpError(400, 'invalid_request_error', 'bad field')]);
    const opts = { cwd: ws.dir, home: ws.home, env: env(s.url) };
    const without = await cairn(['-p', 'hi', '--provider', 'anthropic', '--model', 'claude-opus-4-1'], opts);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('overloaded (529)');
    const rejected = await cairn(['-p', 'hi', '--provider', 'anthropic', '--model', 'claude-opus-4-1', '--fallback-model', 'claude-haiku-4-5'], opts);
    expect(rejected.code).toBe(1);
    expect(s.requests.map((r) => r.body.model)).toEqual(['claude-opus-4-1', 'claude-opus-4-1', 'claude-opus-4-1', 'claude-opus-4-1']);
    expect(rejected.stderr).not.toContain('fallback');
  });
});

describe('--agents', SLOW, () => {
  const agents = JSON.stringify({ reviewer: { description: 'Reviews a change for naming problems', prompt: 'You are REVIEWER-7: report naming problems only.', tools: ['Read'] } });

  it("defines a subagent for the session: offered by the agent tool, run with its prompt and tools", async () => {
    const ws = await tempWorkspace({ 'a.ts': 'const x = 1;' });
    const s = await anthropic((request) => {
      const system = systemOf(request.body);
      if (system.includes('REVIEWER-7')) return text('x is a poor name.');
      if (JSON.stringify(request.body.messages).includes('"tool_result"')) return text('The reviewer says: x is a poor name.');
      return anthropicReply([{ type: 'tool_use', id: 'toolu_a', name: 'agent', input: { type: 'reviewer', description: 'review a.ts', task: 'Review a.ts' } }]);
    });
    const run = await cairn(['-p', 'review a.ts', '--provider', 'anthropic', '--agents', agents], { cwd: ws.dir, home: ws.home, env: env(s.url) });
    expect(run.code).toBe(0);
    const agentTool = s.requests[0]!.body.tools?.find((t) => t.name === 'agent');
    expect(agentTool?.description).toContain('reviewer');
    expect(agentTool?.description).toContain('Reviews a change for naming problems');
    const child = s.requests.find((r) => systemOf(r.body).includes('REVIEWER-7'));
    expect(child).toBeDefined();
    expect(child!.body.tools?.map((t) => t.name)).toEqual(['read_file']);
    expect(run.stdout).toContain('The reviewer says: x is a poor name.');
  });

  it('a definition without its prompt stops cairn naming the agent and the field', async () => {
    const ws = await tempWorkspace();
    const run = await cairn(['-p', 'hi', '--agents', '{"reviewer": {"description": "r"}}'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cairn: --agents: "reviewer": prompt: /);
  });
});
