// An `http` hook: the input JSON POSTed to the hook's URL; a 2xx response's body is read as the
// hook's output (JSON, as a command's stdout), anything else is a non-blocking error. The URL is
// configuration, not the model's, but it is still held to web_fetch's address rules: every hop must
// resolve to a public address, except loopback for a hook from the user's own settings file (a
// local approval service). A project's or plugin's hook never reaches loopback, private or
// link-local addresses (cloud metadata), whatever the name resolves to.
import { isIP } from 'node:net';
import { fetchPage, type FetchOptions } from '../web/fetch-page.js';
import type { Lookup } from '../web/address-guard.js';
import { errorMessage } from '../util/error-message.js';
import type { HookHandler, HookProcessResult } from './hook-types.js';

/** The response body read at most (a hook's answer is a small JSON object). */
const MAX_RESPONSE_BYTES = 1_000_000;

function isLoopbackName(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

export interface HttpHookOptions {
  handler: Extract<HookHandler, { type: 'http' }>;
  body: string;
  timeoutMs: number;
  /** Variables `$NAME` / `${NAME}` in header values expand from (a token kept out of the settings file). */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  lookup?: Lookup;
}

function expandEnv(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a: string | undefined, b: string | undefined) => env[a ?? b ?? ''] ?? '');
}

/** Never rejects: a refused address, a timeout or a non-2xx status is a result with `failed`. */
export async function postHook(opts: HttpHookOptions): Promise<HookProcessResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(opts.handler.headers)) headers[name] = expandEnv(value, opts.env);
  const fetchOpts: FetchOptions = {
    signal: opts.signal ?? new AbortController().signal,
    allowPrivate: (host) => opts.handler.allowPrivate && isLoopbackName(host),
    method: 'POST',
    headers,
    body: opts.body,
    timeoutMs: opts.timeoutMs,
    maxBytes: MAX_RESPONSE_BYTES,
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  };
  try {
    const page = await fetchPage(new URL(opts.handler.url), fetchOpts);
    const body = page.body.toString('utf8');
    if (page.status < 200 || page.status >= 300) return { exitCode: 1, stdout: '', stderr: '', timedOut: false, failed: `answered HTTP ${page.status}${body.trim() ? `: ${body.trim().slice(0, 200)}` : ''}` };
    return { exitCode: 0, stdout: body, stderr: '', timedOut: false };
  } catch (error) {
    const message = errorMessage(error);
    return { exitCode: null, stdout: '', stderr: '', timedOut: /^timed out/.test(message), failed: `POST ${opts.handler.url} failed: ${message}` };
  }
}
