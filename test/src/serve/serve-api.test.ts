import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { trackedServeRigs, type SseMessage } from '../../helpers/serve-rig.js';
import { waitFor } from '../../helpers/wait-for.js';

const rig = trackedServeRigs();
const isType = (t: AgentEvent['type']) => (m: SseMessage) => m.event === 'agent' && m.data['type'] === t;

describe('cairn serve: sessions over HTTP', () => {
  it('creates a session, lists it under its workspace, runs a prompt and streams its events', async () => {
    const r = await rig({ files: { 'a.txt': 'alpha\n' } });
    const id = await r.newSession();
    const list = await r.api('/api/sessions');
    expect(list.status).toBe(200);
    const workspaces = list.body['workspaces'] as { cwd: string; sessions: { id: string; title: string }[] }[];
    expect(workspaces.find((w) => w.cwd === r.dir)?.sessions[0]).toMatchObject({ id, live: true });

    const events = r.stream(`/api/sessions/${id}/events`);
    await events.waitFor(isType('session_start'), 'session_start first');
    expect((await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'read a.txt' } })).status).toBe(202);
    await events.waitFor(isType('terminal'), 'the turn ends');
    const types = events.agentEvents().map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['user_prompt', 'tool_start', 'tool_result', 'terminal']));
    const ids = events.messages.filter((m) => m.event === 'agent').map((m) => m.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1)); // numbered 1, 2, 3... with no gap
    const after = await r.api('/api/sessions');
    const later = after.body['workspaces'] as { cwd: string; sessions: { title: string }[] }[];
    expect(later.find((w) => w.cwd === r.dir)?.sessions[0]?.title).toBe('read a.txt');
  });

  it('an approval answered in one tab is decided once: both tabs saw it, the second answer is refused', async () => {
    const r = await rig();
    const id = await r.newSession();
    const tab1 = r.stream(`/api/sessions/${id}/events`);
    const tab2 = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'write hello to out.txt' } });
    const ask = await tab1.waitFor(isType('permission_request'), 'the ask in tab 1');
    await tab2.waitFor(isType('permission_request'), 'the ask in tab 2');
    const state = await tab2.waitFor((m) => m.event === 'state' && m.data.pending.length === 1, 'the pending request in the state');
    expect(state.data.pending[0].answers).toEqual(expect.arrayContaining(['yes', 'no']));
    const first = await r.api(`/api/sessions/${id}/permission`, { body: { request_id: ask.data.request_id, answer: 'yes' } });
    const second = await r.api(`/api/sessions/${id}/permission`, { body: { request_id: ask.data.request_id, answer: 'no' } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
    await tab2.waitFor(isType('terminal'), 'the turn ends');
    expect(await fs.readFile(path.join(r.dir, 'out.txt'), 'utf8')).toBe('hello\n');
  });

  it('an answer names the ask by its own request_id: the tool_use id answers nothing', async () => {
    const r = await rig();
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'write hello to out.txt' } });
    const ask = await tab.waitFor(isType('permission_request'), 'the ask');
    const state = await tab.waitFor((m) => m.event === 'state' && m.data.pending.length === 1, 'the pending request in the state');
    expect(ask.data.request_id).toMatch(/^ask_/);
    expect(state.data.pending[0]).toMatchObject({ id: ask.data.id, request_id: ask.data.request_id });
    const byToolUse = await r.api(`/api/sessions/${id}/permission`, { body: { request_id: ask.data.id, answer: 'yes' } });
    expect(byToolUse.status).toBe(409);
    await expect(fs.access(path.join(r.dir, 'out.txt'))).rejects.toThrow();
    expect((await r.api(`/api/sessions/${id}/permission`, { body: { request_id: ask.data.request_id, answer: 'yes' } })).status).toBe(200);
    await tab.waitFor(isType('terminal'), 'the turn ends');
    expect(await fs.readFile(path.join(r.dir, 'out.txt'), 'utf8')).toBe('hello\n');
  });

  it('a denial with a reason reaches the model, and nothing is written', async () => {
    const r = await rig();
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'write hello to out.txt' } });
    const ask = await tab.waitFor(isType('permission_request'), 'the ask');
    expect((await r.api(`/api/sessions/${id}/permission`, { body: { request_id: ask.data.request_id, answer: 'no', reason: 'use notes.md instead' } })).status).toBe(200);
    const result = await tab.waitFor(isType('tool_result'), 'the denied result');
    expect(result.data.is_error).toBe(true);
    expect(result.data.content).toContain('use notes.md instead');
    await expect(fs.access(path.join(r.dir, 'out.txt'))).rejects.toThrow();
  });

  it('an approval nobody answers says how long it waits, then is answered no with a message; nothing is written', async () => {
    const r = await rig({ approvalTimeoutMs: 1000 });
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'write hello to out.txt' } });
    const state = await tab.waitFor((m) => m.event === 'state' && m.data.pending.length === 1, 'the pending request in the state');
    const left = state.data.pending[0].expires_in_ms as number;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(1000);
    const result = await tab.waitFor(isType('tool_result'), 'the unanswered request answered no');
    expect(result.data.is_error).toBe(true);
    expect(result.data.content).toMatch(/nobody answered the permission prompt within 1 s, so it was answered no/);
    const warning = await tab.waitFor((m) => isType('notice')(m) && String(m.data['message']).startsWith('No answer to write_file'), 'the notice');
    expect(warning.data['message']).toBe('No answer to write_file within 1 s: answered no. (Approvals wait 1 s; approvalTimeoutSeconds in config.json sets it.)');
    await tab.waitFor((m) => m.event === 'state' && m.data.pending.length === 0, 'no request pending');
    await expect(fs.access(path.join(r.dir, 'out.txt'))).rejects.toThrow();
  });

  it('a question nobody answers is declined in question words, not answered no as an approval', async () => {
    const r = await rig({ approvalTimeoutMs: 1000 });
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'ask me: Which database? Postgres | SQLite' } });
    await tab.waitFor((m) => m.event === 'state' && m.data.pending.length === 1 && m.data.pending[0].name === 'ask_user_question', 'the pending question');
    const result = await tab.waitFor(isType('tool_result'), 'the unanswered question declined');
    expect(result.data.is_error).toBe(true);
    expect(result.data.content).toMatch(/^nobody answered the question within 1 s, so it was declined; the user may be away\. Do not ask the same again/);
    expect(result.data.content).not.toMatch(/permission|answered no/);
    const warning = await tab.waitFor((m) => isType('notice')(m) && String(m.data['message']).startsWith('No answer'), 'the notice');
    expect(warning.data['message']).toBe("No answer to the model's question within 1 s: declined. (Questions and approvals wait 1 s; approvalTimeoutSeconds in config.json sets it.)");
    await tab.waitFor((m) => m.event === 'state' && m.data.pending.length === 0, 'no question pending');
  });

  it('an answer the request did not offer is refused: a page cannot remember a rule of its own', async () => {
    const r = await rig();
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'write hello to out.txt' } });
    const ask = await tab.waitFor(isType('permission_request'), 'the ask');
    const odd = await r.api(`/api/sessions/${id}/permission`, { body: { request_id: ask.data.request_id, answer: 'yes', rules: ['Bash(*)'] } });
    expect(odd.status).toBe(400);
    expect(odd.body.error).toMatch(/rules/);
    const plan = await r.api(`/api/sessions/${id}/permission`, { body: { request_id: ask.data.request_id, answer: 'acceptEdits' } });
    expect(plan.status).toBe(400);
    expect(plan.body.error).toMatch(/not offered/);
  });

  it('a page that reconnects with Last-Event-ID gets exactly what it missed: no gap, no duplicate', async () => {
    const r = await rig({ files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } });
    const id = await r.newSession();
    const first = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'read a.txt' } });
    await first.waitFor(isType('terminal'), 'first turn');
    const seen = first.messages.filter((m) => m.event === 'agent');
    const lastId = seen.at(-1)?.id ?? 0;
    first.close();
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'read b.txt' } });
    await waitFor(() => r.hub.state(id).busy === false && r.hub.get(id).log.lastId > lastId + 3, { message: 'second turn done' });
    await waitFor(() => !r.hub.state(id).busy, { message: 'idle' });
    const again = r.stream(`/api/sessions/${id}/events`, lastId);
    await again.waitFor((m) => m.event === 'agent' && m.data.type === 'terminal', 'the missed turn');
    const replayed = again.messages.filter((m) => m.event === 'agent');
    expect(replayed[0]?.id).toBe(lastId + 1);
    expect(replayed.map((m) => m.id)).toEqual(replayed.map((_, i) => lastId + 1 + i));
    expect(replayed.some((m) => m.data.type === 'user_prompt' && m.data.text === 'read b.txt')).toBe(true);
    expect(replayed.some((m) => m.data.type === 'user_prompt' && m.data.text === 'read a.txt')).toBe(false);
  });

  it('abort stops the turn and hands back the prompts that waited; /api/info lists the page\'s commands', async () => {
    const r = await rig();
    const info = await r.api('/api/info');
    expect((info.body['commands'] as { name: string }[]).map((c) => c.name)).toEqual(expect.arrayContaining(['mode', 'model', 'clear', 'compact', 'help']));
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'stream 2000 at 40/s' } });
    await tab.waitFor(isType('text_delta'), 'streaming');
    const queued = await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'read a.txt' } });
    expect(queued.body['queued']).toEqual(['read a.txt']);
    const stopped = await r.api(`/api/sessions/${id}/abort`, { body: {} });
    expect(stopped.body['returned']).toEqual(['read a.txt']);
    const end = await tab.waitFor(isType('terminal'), 'the turn ends');
    expect(end.data['reason']).toBe('aborted');
  });

  it('slash commands run from the page and every tab sees their output; bypass is refused off loopback', async () => {
    const r = await rig();
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    const mode = await r.api(`/api/sessions/${id}/command`, { body: { text: '/mode plan' } });
    expect(mode.status).toBe(200);
    expect(mode.body.state.mode).toBe('plan');
    await tab.waitFor((m) => m.event === 'agent' && m.data.type === 'mode_change' && m.data.mode === 'plan', 'the mode change');
    await r.api(`/api/sessions/${id}/command`, { body: { text: '/help' } });
    await tab.waitFor((m) => m.event === 'agent' && m.data.type === 'notice' && String(m.data.message).includes('/compact'), "/help's notice");
    // The mode change is the page's notice ("Mode: plan"): no second notice repeats it.
    expect(tab.agentEvents().filter((e) => e.type === 'notice' && e.message === 'Mode: plan')).toEqual([]);
    await r.api(`/api/sessions/${id}/command`, { body: { text: '/mode plan' } }); // unchanged: no mode change, so a notice says so
    await tab.waitFor((m) => m.event === 'agent' && m.data.type === 'notice' && m.data.message === 'Mode: plan', 'the notice');
    const unknown = await r.api(`/api/sessions/${id}/command`, { body: { text: '/nope' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/no command \/nope/);

    const remote = await rig({ host: '0.0.0.0', token: 'sesame', refuseBypass: true });
    const rid = await remote.newSession();
    const bypass = await remote.api(`/api/sessions/${rid}/command`, { body: { text: '/mode bypassPermissions' } });
    // Not started in it, so not offered (400); a session started in it is still refused off loopback (403, session-hub.ts).
    expect(bypass.status).toBe(400);
    expect(remote.hub.state(rid).mode).toBe('default');
  });

  it("the page's /mode follows the terminal's policy: no argument cycles as Shift+Tab does; bypassPermissions only when started in it", async () => {
    const r = await rig();
    const id = await r.newSession();
    const mode = async (text: string) => (await r.api(`/api/sessions/${id}/command`, { body: { text } })).body.state?.mode as string | undefined;
    expect([await mode('/mode'), await mode('/mode'), await mode('/mode')]).toEqual(['acceptEdits', 'plan', 'default']);
    const bypass = await r.api(`/api/sessions/${id}/command`, { body: { text: '/mode bypassPermissions' } });
    expect(bypass.status).toBe(400);
    expect(bypass.body.error).toBe('mode: one of default, acceptEdits, plan (bypassPermissions only when cairn was started in it)');
    expect((await r.api(`/api/sessions/${id}/command`, { body: { text: '/mode sideways' } })).body.error).toBe('mode: one of default, acceptEdits, plan');
    expect(r.hub.state(id).mode).toBe('default');
  });

  it('resumes a session saved on disk (one started in the terminal) with its history', async () => {
    const r = await rig({ files: { 'a.txt': 'alpha\n' } });
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'read a.txt' } });
    await tab.waitFor(isType('terminal'), 'the turn');
    expect((await r.api(`/api/sessions/${id}/close`, { body: {} })).status).toBe(200);
    expect((await r.api(`/api/sessions/${id}`)).status).toBe(404);
    const saved = await r.api('/api/sessions');
    expect(saved.body.workspaces[0].sessions[0]).toMatchObject({ id, live: false, title: 'read a.txt' });
    const resumed = await r.api('/api/sessions', { body: { resume: id } });
    expect(resumed.status).toBe(201);
    const again = r.stream(`/api/sessions/${id}/events`);
    await again.waitFor((m) => m.event === 'agent' && m.data.type === 'user_prompt' && m.data.text === 'read a.txt', 'the earlier prompt');
  });

  it('sends a heartbeat on idle streams, and cron notices on the global stream', async () => {
    const r = await rig({ heartbeatMs: 50 });
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    const global = r.stream('/api/events');
    await waitFor(() => tab.comments.includes('heartbeat') && global.comments.includes('heartbeat'), { message: 'heartbeats' });
    r.hub.get(id).runtime.session.emit({ type: 'cron', task_id: 't1', schedule: '* * * * *', prompt: 'tick', status: 'fired' });
    const n = await global.waitFor((m) => m.event === 'notice', 'the cron notice');
    expect(n.data).toMatchObject({ session: id, cwd: r.dir, event: { type: 'cron', status: 'fired' } });
  });
});

describe('cairn serve: what it refuses', () => {
  it('bad bodies: a 400 that names the field; not JSON: 415; too big: 413', async () => {
    const r = await rig();
    const id = await r.newSession();
    const missing = await r.api(`/api/sessions/${id}/prompt`, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^text: /);
    const extra = await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'hi', admin: true } });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toMatch(/admin/);
    const broken = await r.api(`/api/sessions/${id}/prompt`, { body: '{"text": ' });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/invalid JSON/);
    const form = await r.api(`/api/sessions/${id}/prompt`, { method: 'POST', body: 'text=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    const huge = await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'x'.repeat(1_100_000) } });
    expect(huge.status).toBe(413);
    expect((await r.api('/api/sessions/nope')).status).toBe(404);
  });

  it('a foreign Host (DNS rebinding) or Origin (another site) is refused', async () => {
    const r = await rig();
    // fetch always sends the URL's host: a raw request names another one, as a rebound DNS name would.
    const rebinding = await new Promise<number>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: r.server.port, path: '/api/sessions', headers: { host: `evil.example:${r.server.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(rebinding).toBe(403);
    const crossSite = await r.api('/api/sessions', { body: {}, headers: { origin: 'http://evil.example' } });
    expect(crossSite.status).toBe(403);
    const nullOrigin = await r.api('/api/sessions', { body: {}, headers: { origin: 'null' } });
    expect(nullOrigin.status).toBe(403);
    const sameSite = await r.api('/api/sessions', { body: {}, headers: { origin: `http://127.0.0.1:${r.server.port}` } });
    expect(sameSite.status).toBe(201);
    const sse = r.stream('/api/events', undefined, { origin: 'http://evil.example' });
    expect(await sse.status).toBe(403);
  });

  it('off loopback every request and stream needs the token', async () => {
    const r = await rig({ host: '0.0.0.0', token: 'sesame' });
    expect(r.server.url).toContain('?token=sesame');
    const without = await fetch(`${r.base}/api/sessions`);
    expect(without.status).toBe(401);
    const wrong = await fetch(`${r.base}/api/sessions`, { headers: { authorization: 'Bearer sesamf' } });
    expect(wrong.status).toBe(401);
    expect((await r.api('/api/sessions')).status).toBe(200);
    const page = await fetch(`${r.base}/?token=sesame`);
    expect(page.status).toBe(200);
    const streamWithout = r.stream('/api/events', undefined, { authorization: '' });
    expect(await streamWithout.status).toBe(401);
    const streamQuery = r.stream('/api/events?token=sesame', undefined, { authorization: '' });
    expect(await streamQuery.status).toBe(200);
  });

  it('static files cannot escape their folder', async () => {
    const r = await rig();
    const page = await r.api('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>cairn</title>');
    for (const attempt of ['/static/../package.json', '/static/%2e%2e/package.json', '/static/..%2fpackage.json', '/static/%2e%2e%2f%2e%2e%2fpackage.json', '/static/..%5cpackage.json', '/static/app.js%00.html', '/static//etc/passwd', '/static/%2fetc%2fpasswd']) {
      const res = await fetch(`${r.base}${attempt}`);
      const text = await res.text();
      expect(res.status, attempt).not.toBe(200);
      expect(text, attempt).not.toContain('"name": "cairn"');
      expect(text, attempt).not.toContain('root:');
    }
  });
});
