import http from 'node:http';
import { afterEach } from 'vitest';
import path from 'node:path';
import { createRuntime } from '../../src/bootstrap.js';
import type { AgentEvent } from '../../src/events.js';
import { webRoot } from '../../src/serve/serve-command.js';
import { startServer, type CairnServer } from '../../src/serve/server.js';
import { createSessionHub } from '../../src/serve/session-hub.js';
import { tempWorkspace } from './run-cairn.js';
import { waitFor } from './wait-for.js';

/** A real `cairn serve` in-process on a loopback port: real runtimes on the offline model, temp workspace and CAIRN_HOME. */
export interface ServeRigOptions {
  files?: Record<string, string>;
  host?: string;
  token?: string;
  refuseBypass?: boolean;
  heartbeatMs?: number;
  approvalTimeoutMs?: number;
  /** Another provider than the offline model (with `env` naming its loopback server and key). */
  provider?: string;
  env?: Record<string, string>;
}

export async function startServeRig(opts: ServeRigOptions = {}) {
  const { dir, home } = await tempWorkspace(opts.files ?? {});
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '', HOME: path.dirname(home), CAIRN_HOME: home, ...opts.env };
  const hub = createSessionHub({
    refuseBypass: opts.refuseBypass ?? false,
    ...(opts.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: opts.approvalTimeoutMs } : {}),
    open: (o) => createRuntime({ cwd: o.cwd, env, interactive: true, ...(opts.provider ? { provider: opts.provider } : {}), ...(o.resumeId ? { resumeId: o.resumeId } : {}) }),
  });
  const server: CairnServer = await startServer({
    hub,
    host: opts.host ?? '127.0.0.1',
    port: 0,
    ...(opts.token ? { token: opts.token } : {}),
    cairnHome: home,
    defaultCwd: dir,
    staticRoot: webRoot(),
    version: 'test',
    ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}),
  });
  const base = `http://127.0.0.1:${server.port}`;
  const streams: SseClient[] = [];

  async function api(p: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: ApiBody; text: string }> {
    const res = await fetch(`${base}${p}`, {
      method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    let body: ApiBody;
    try {
      body = JSON.parse(text) as ApiBody;
    } catch {
      body = {}; // not JSON (a static file): tests read `text`
    }
    return { status: res.status, body, text };
  }

  return {
    dir,
    home,
    server,
    hub,
    base,
    api,
    /** Opens an event stream (Last-Event-ID when given); closed with the rig. */
    stream(p: string, lastEventId?: number, headers: Record<string, string> = {}): SseClient {
      const s = openSseClient(`${base}${p}`, { ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...headers });
      streams.push(s);
      return s;
    },
    async newSession(): Promise<string> {
      const r = await api('/api/sessions', { body: {} });
      if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
      return (r.body as { id: string }).id;
    },
    async close() {
      for (const s of streams) s.close();
      await server.close();
    },
  };
}

export type ServeRig = Awaited<ReturnType<typeof startServeRig>>;

/** startServeRig for a test file: every rig a test starts is closed after that test. */
export function trackedServeRigs(): (opts?: ServeRigOptions) => Promise<ServeRig> {
  const rigs: ServeRig[] = [];
  afterEach(async () => {
    for (const r of rigs.splice(0)) await r.close();
  });
  return async (opts = {}) => {
    const r = await startServeRig(opts);
    rigs.push(r);
    return r;
  };
}

/** A JSON answer, loosely typed: tests assert on its fields. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies are asserted field by field in tests
export type ApiBody = Record<string, any>;

export interface SseMessage {
  id?: number;
  event: string;
  data: ApiBody;
}

export interface SseClient {
  messages: SseMessage[];
  comments: string[];
  status: Promise<number>;
  /** The agent events received, in order. */
  agentEvents(): AgentEvent[];
  waitFor(predicate: (m: SseMessage) => boolean, message: string): Promise<SseMessage>;
  close(): void;
}

/** A minimal EventSource over node:http, so tests can set Last-Event-ID and read comments. */
export function openSseClient(url: string, headers: Record<string, string>): SseClient {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  let buffer = '';
  let resolveStatus: (n: number) => void = () => undefined;
  const status = new Promise<number>((r) => (resolveStatus = r));
  const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
    resolveStatus(res.statusCode ?? 0);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const m: Partial<SseMessage> & { dataText?: string } = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('id: ')) m.id = Number(line.slice(4));
          else if (line.startsWith('event: ')) m.event = line.slice(7);
          else if (line.startsWith('data: ')) m.dataText = (m.dataText ?? '') + line.slice(6);
        }
        if (m.dataText !== undefined) messages.push({ ...(m.id !== undefined ? { id: m.id } : {}), event: m.event ?? 'message', data: JSON.parse(m.dataText) });
      }
    });
  });
  req.on('error', () => undefined); // closed by the test
  return {
    messages,
    comments,
    status,
    agentEvents: () => messages.filter((m) => m.event === 'agent').map((m) => m.data as AgentEvent),
    waitFor: (predicate, message) =>
      waitFor(
        () => {
          const found = messages.find(predicate);
          if (!found) throw new Error(`${message}: not yet; got ${messages.map((m) => (m.event === 'agent' ? (m.data as AgentEvent).type : m.event)).join(', ')}`);
          return found;
        },
        { message, timeout: 15_000 },
      ),
    close: () => req.destroy(),
  };
}
