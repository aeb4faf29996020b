// The handler kinds beyond `command`: `http` (the input JSON POSTed to a loopback server, its body
// read as the output; the address rules of web_fetch) and `prompt` (one model call answering
// {"ok": ...}), each through the loop as a user would meet it.
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettingsHooks } from '../../../src/hooks/hook-config.js';
import { createHookRunner } from '../../../src/hooks/hook-runner.js';
import { query, type QueryParams } from '../../../src/loop/query.js';
import type { Message } from '../../../src/messages.js';
import { userText } from '../../../src/messages.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import type { PermissionChecker } from '../../../src/permissions/types.js';
import type { ModelProvider } from '../../../src/providers/provider.js';
import { collect, ofType } from '../../helpers/collect.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { hookWorkspace } from '../../helpers/hook-rig.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';

let dir: string;
let server: http.Server | undefined;
// The real chain in bypassPermissions: these tests are about hooks, not approvals.
let open: PermissionChecker;
beforeEach(async () => {
  dir = await hookWorkspace();
  open = await allowEverything(dir);
});
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  await fs.rm(dir, { recursive: true, force: true });
});

interface Seen {
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
}

/** A loopback hook endpoint answering each POST with `answer(body)` (status, body). */
async function hookServer(answer: (body: Record<string, unknown>) => [number, string]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      seen.push({ body, headers: req.headers });
      const [status, out] = answer(body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(out);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

function runner(hooks: unknown, scope: 'user' | 'project', model?: () => ModelProvider) {
  const file = scope === 'user' ? path.join(dir, 'home', 'settings.json') : path.join(dir, '.claude', 'settings.json');
  const parsed = parseSettingsHooks(hooks, file, { origin: `${scope} settings`, userOwned: scope === 'user' });
  expect(parsed.problems).toEqual([]);
  return createHookRunner({ hooks: () => parsed.hooks, cwd: dir, env: { ...process.env, HOOK_TOKEN: 'sekrit' }, sessionId: 's1', ...(model ? { model } : {}) });
}

function run(hooks: ReturnType<typeof runner>, replies: Parameters<typeof scriptedProvider>[0]) {
  const provider = scriptedProvider(replies);
  const params: QueryParams = {
    messages: [], prompt: userText('go'), provider, tools: [createWriteFileTool()], permissions: open,
    system: () => 'system', cwd: dir, signal: new AbortController().signal, hooks,
  };
  return { provider, events: collect(query(params)) };
}

const exists = (file: string) => fs.access(file).then(() => true, () => false);

describe('http hooks', () => {
  it("from the user's settings, a loopback URL gets the input JSON (with $VAR headers expanded) and its JSON answer denies the call", async () => {
    const { url, seen } = await hookServer(() => [200, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'policy server says no' } })]);
    const hooks = runner({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'http', url, headers: { Authorization: 'Bearer $HOOK_TOKEN' }, timeout: 10 }] }] }, 'user');
    const all = await run(hooks, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
    expect(ofType(all, 'tool_result')[0]?.content).toContain('policy server says no');
    expect(seen[0]?.body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Write', session_id: 's1', tool_input: { file_path: path.join(dir, 'a.txt') } });
    expect(seen[0]?.headers['authorization']).toBe('Bearer sekrit');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it("from a project's settings, a loopback URL is refused (SSRF rules): nothing is posted, the user is told, the hook decides nothing", async () => {
    const { url, seen } = await hookServer(() => [200, '{"decision":"block","reason":"x"}']);
    const hooks = runner({ UserPromptSubmit: [{ hooks: [{ type: 'http', url }] }] }, 'project');
    const { events, provider } = run(hooks, [assistantText('ok')]);
    const all = await events;
    expect(seen).toHaveLength(0);
    expect(provider.requests).toHaveLength(1);
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'error', text: expect.stringContaining('loopback, private or link-local') })]);
  });

  it('a non-2xx answer is a non-blocking error; a 2xx body with additionalContext reaches the model', async () => {
    let status = 500;
    const { url } = await hookServer(() => [status, status === 200 ? '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"on-call: alice"}}' : 'boom']);
    const hooks = runner({ UserPromptSubmit: [{ hooks: [{ type: 'http', url }] }] }, 'user');
    const first = await run(hooks, [assistantText('ok')]).events;
    expect(ofType(first, 'hook')).toEqual([expect.objectContaining({ outcome: 'error', text: expect.stringContaining('answered HTTP 500') })]);
    status = 200;
    const { events, provider } = run(hooks, [assistantText('ok')]);
    await events;
    expect(JSON.stringify((provider.requests[0] as { messages: Message[] }).messages)).toContain('on-call: alice');
  });

  it('a bad url, a non-http scheme and headers that are not strings are reported naming the key', () => {
    const parsed = parseSettingsHooks({ Stop: [{ hooks: [{ type: 'http', url: 'file:///etc/passwd' }, { type: 'http', url: 'http://x', headers: { a: 1 } }, { type: 'agent', prompt: 'x' }] }] }, '/s.json');
    expect(parsed.hooks).toEqual([]);
    expect(parsed.problems).toEqual([
      '/s.json: hooks.Stop[0].hooks[0].url: only http and https are posted to, got file:; this hook is not loaded',
      '/s.json: hooks.Stop[0].hooks[1].headers: expected an object of strings; this hook is not loaded',
      '/s.json: hooks.Stop[0].hooks[2].type: cairn runs "command", "http" and "prompt" hooks, got "agent"; this hook is not loaded',
    ]);
  });
});

describe('prompt hooks', () => {
  it('the model judges the input ($ARGUMENTS replaced by the JSON); ok false blocks the call with its reason', async () => {
    const judge = scriptedProvider([assistantText('{"ok": false, "reason": "writes to secrets are not allowed"}')]);
    const hooks = runner({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'prompt', prompt: 'Is this write safe? $ARGUMENTS' }] }] }, 'project', () => judge);
    const all = await run(hooks, [toolCall('w1', 'write_file', { path: 'secrets.env', content: 'x' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'secrets.env'))).toBe(false);
    expect(ofType(all, 'tool_result')[0]?.content).toContain('writes to secrets are not allowed');
    const asked = JSON.stringify(judge.requests[0]?.messages);
    expect(asked).toContain('Is this write safe?');
    expect(asked).toContain('secrets.env');
    expect(asked).not.toContain('$ARGUMENTS');
  });

  it('ok true lets the call run; an answer that is not {ok} is an error that decides nothing', async () => {
    const judge = scriptedProvider([assistantText('{"ok": true}'), assistantText('I think it is fine')]);
    const hooks = runner({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'prompt', prompt: 'Safe?' }] }] }, 'project', () => judge);
    await run(hooks, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'a.txt'))).toBe(true);
    const all = await run(hooks, [toolCall('w2', 'write_file', { path: 'b.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'b.txt'))).toBe(true);
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'error', text: expect.stringContaining('was not {"ok"') })]);
  });

  it('with no model to ask (the offline model), the hook says so and decides nothing', async () => {
    const offline: ModelProvider = { name: 'offline', model: 'offline', offline: true, stream: () => { throw new Error('not called'); } };
    const hooks = runner({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'Done?' }] }] }, 'project', () => offline);
    const all = await run(hooks, [assistantText('finished')]).events;
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'error', text: expect.stringContaining('needs a model') })]);
    expect(ofType(all, 'terminal')[0]).toMatchObject({ reason: 'completed' });
  });
});
