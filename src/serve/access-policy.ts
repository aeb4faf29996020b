import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/** Who may talk to the server: the names it answers to and, off loopback, a token. */
export interface AccessPolicy {
  /** The host the server listens on (127.0.0.1 by default). */
  host: string;
  port: number;
  /** Required on every request and event stream when set (always set off loopback). */
  token?: string;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Listening on every interface: any name may reach it, so the token alone decides (it is required there). */
function anyInterface(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** host:port pairs a request may name: the listening host, and the loopback names when on loopback. */
function allowedHosts(policy: AccessPolicy): Set<string> {
  const names = isLoopback(policy.host) ? ['localhost', '127.0.0.1', '[::1]'] : [policy.host.includes(':') ? `[${policy.host}]` : policy.host];
  return new Set(names.map((n) => `${n}:${policy.port}`));
}

function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: `Authorization: Bearer`, else `?token=` (EventSource cannot set headers). */
function tokenOf(req: IncomingMessage, url: URL): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  return url.searchParams.get('token') ?? undefined;
}

/**
 * The page's own files (its HTML, scripts and styles: no session data) load without the token: the
 * browser fetches them from the HTML with no way to add it, and the page then sends it with every call.
 */
function isPageFile(req: IncomingMessage, url: URL): boolean {
  const p = url.pathname;
  return req.method === 'GET' && (p === '/' || p === '/index.html' || p.startsWith('/static/') || p === '/vendor/marked.js');
}

/**
 * Refuses what a browser tab on another site, or another host name pointed at this machine,
 * could send: a foreign Host (DNS rebinding), a foreign Origin (cross-site requests), a POST that
 * is not JSON (an HTML form needs no preflight), and, when a token is set, any request without it.
 */
export function checkAccess(req: IncomingMessage, url: URL, policy: AccessPolicy): void {
  const host = req.headers.host;
  const hosts = anyInterface(policy.host) && host ? new Set([host.toLowerCase()]) : allowedHosts(policy);
  if (!host || !hosts.has(host.toLowerCase())) throw new HttpError(403, `refused: Host ${host ?? '(none)'} is not this server`);
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let originHost: string;
    try {
      const o = new URL(origin);
      if (o.protocol !== 'http:') throw new Error('not http');
      originHost = o.host;
    } catch {
      throw new HttpError(403, `refused: Origin ${origin} is not this server`);
    }
    if (!hosts.has(originHost.toLowerCase())) throw new HttpError(403, `refused: Origin ${origin} is not this server`);
  } else if (origin === 'null') {
    throw new HttpError(403, 'refused: Origin null');
  }
  if (req.method === 'POST' && !(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
    throw new HttpError(415, 'POST bodies must be application/json');
  }
  if (policy.token !== undefined && !isPageFile(req, url) && !tokenMatches(tokenOf(req, url), policy.token)) {
    throw new HttpError(401, 'a token is required: open the address cairn serve printed (it ends in ?token=...)');
  }
}
