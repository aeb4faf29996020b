import fs from 'node:fs/promises';
import path from 'node:path';
import { createRuntime, type Runtime } from '../../src/bootstrap.js';
import type { AgentEvent } from '../../src/events.js';
import type { ModelRequest } from '../../src/providers/provider.js';
import { tempWorkspace } from './run-cairn.js';

export interface RecordedSession {
  runtime: Runtime;
  /** Every request, as the provider received it. */
  requests: ModelRequest[];
  /** Every event the session told. */
  events: AgentEvent[];
  /** The tool names a request offered. */
  names: (request: ModelRequest | undefined) => string[];
}

const open: Runtime[] = [];

/** Closes the runtimes recordedSession started (call it in afterEach). */
export function closeRecordedSessions(): void {
  for (const r of open.splice(0)) r.close();
}

/**
 * A headless session on the offline model in a temp workspace holding `a.txt` (no team, no cron
 * running, default mode), with every request kept; `onRequest` sees each before it is answered.
 */
export async function recordedSession(onRequest: (request: ModelRequest, runtime: Runtime) => void = () => undefined): Promise<RecordedSession> {
  const ws = await tempWorkspace({ 'a.txt': 'alpha\n' });
  const home = path.join(path.dirname(ws.dir), 'user');
  await fs.mkdir(home, { recursive: true });
  const runtime = await createRuntime({ cwd: ws.dir, env: { HOME: home, CAIRN_HOME: ws.home, CAIRN_OFFLINE_DELAY_MS: '0', PATH: process.env['PATH'] ?? '' }, interactive: false, persist: false });
  open.push(runtime);
  const requests: ModelRequest[] = [];
  const provider = runtime.session.provider;
  const stream = provider.stream.bind(provider);
  (provider as { stream: typeof provider.stream }).stream = (request) => {
    requests.push(request);
    onRequest(request, runtime);
    return stream(request);
  };
  const events: AgentEvent[] = [];
  runtime.session.subscribe((e) => events.push(e));
  return { runtime, requests, events, names: (request) => request?.tools.map((t) => t.name) ?? [] };
}
