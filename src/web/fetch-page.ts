import { lookup as dnsLookup } from 'node:dns/promises';
import { bareHost, BlockedAddressError, resolveAllowed } from './address-guard.js';
import type { Lookup } from './address-guard.js';
import { httpHop } from './http-get.js';
import type { HopResponse } from './http-get.js';
import { errorMessage } from '../util/error-message.js';

export const MAX_REDIRECTS = 5;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface FetchOptions {
  signal: AbortSignal;
  /** Whether a rule names this host, so it may be a loopback or private address. */
  allowPrivate: (host: string) => boolean;
  lookup?: Lookup;
  maxBytes?: number;
  timeoutMs?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface FetchedPage extends HopResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  /** Each redirect followed, `from -> to (status)`. */
  hops: string[];
}

/** Why a fetch gave no page, in words the model can act on. */
export class FetchError extends Error {
  override name = 'FetchError';
  constructor(message: string, readonly hops: string[] = []) {
    super(message);
  }
}

export const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * GET (or POST) with redirects followed by hand, each hop's host resolved and checked before it is
 * contacted; a timeout over the whole exchange and a cap on the bytes read.
 */
export async function fetchPage(start: URL, opts: FetchOptions): Promise<FetchedPage> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([opts.signal, timeout]);
  const lookup = opts.lookup ?? systemLookup;
  const hops: string[] = [];
  let url = start;
  let method = opts.method ?? 'GET';
  let body = opts.body;
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError(`refused: ${url.protocol} URLs are not fetched (only http and https)`, hops);
    if (url.username || url.password) throw new FetchError('refused: URLs with a user name or password are not fetched', hops);
    const host = bareHost(url);
    let response: HopResponse;
    try {
      const address = await resolveAllowed(host, lookup, opts.allowPrivate(host));
      response = await httpHop(url, {
        method,
        ...(opts.headers ? { headers: opts.headers } : {}),
        ...(body !== undefined ? { body } : {}),
        address,
        maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
        signal,
      });
    } catch (err) {
      if (err instanceof BlockedAddressError) throw new FetchError(`refused: ${err.message}`, hops);
      if (opts.signal.aborted) throw new FetchError('interrupted by the user', hops);
      if (timeout.aborted) throw new FetchError(`timed out after ${timeoutMs / 1000} s waiting for ${url.origin}`, hops);
      throw new FetchError(`could not reach ${url.origin}: ${errorMessage(err)}`, hops);
    }
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || location === undefined) return { ...response, url, hops };
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new FetchError(`${url.href} redirected to an invalid URL: ${location}`, hops);
    }
    hops.push(`${url.href} -> ${next.href} (${response.status})`);
    if (redirects + 1 > MAX_REDIRECTS) throw new FetchError(`too many redirects (more than ${MAX_REDIRECTS}); the last went to ${next.href}`, hops);
    // 303 (and, as browsers do, 301/302 after a POST) continue as a GET without the body.
    if (response.status === 303 || (method === 'POST' && (response.status === 301 || response.status === 302))) {
      method = 'GET';
      body = undefined;
    }
    url = next;
  }
}
