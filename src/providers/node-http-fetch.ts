import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { ProviderError } from './provider.js';

// Node's own fetch (undici) carries every response through its WebAssembly HTTP parser and web
// streams, and the SDK then decodes the event stream through more of them: for a streamed answer
// that was most of cairn's CPU outside drawing (BENCHMARKS.md, "The provider's transport"). The
// SDKs take a `fetch`; this one runs on node:http, whose parser is native. A successful response
// that is not JSON (an event stream) is handed over as the socket's own stream (`eventStream`),
// which sse-reader.ts reads; JSON and every error's body are read whole into an ordinary Response.

export interface NodeHttpFetch {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * The body of a model's streamed answer this fetch returned (the Response itself has none); a JSON answer
   * instead is a ProviderError naming the endpoint.
   */
  answerStream(response: Response, provider: string, baseUrl: string): IncomingMessage;
}

/** A fetch on node:http with keep-alive connections, for one provider's SDK client. */
export function createNodeHttpFetch(): NodeHttpFetch {
  const streams = new WeakMap<Response, IncomingMessage>();
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  const fetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      if (input instanceof Request) return reject(new TypeError('this fetch takes a URL and options, not a Request'));
      const url = new URL(input);
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:') return reject(new TypeError(`cannot fetch ${url.protocol} URLs (${url.href})`));
      const body = init.body;
      if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
        return reject(new TypeError('this fetch sends only a string or bytes as the request body'));
      }
      const headers = Object.fromEntries(new Headers(init.headers ?? {}));
      const options = { method: init.method ?? 'GET', headers, agent: secure ? agents.https : agents.http, ...(init.signal ? { signal: init.signal } : {}) };
      const request = (secure ? https : http).request(url, options, (res) => {
        const status = res.statusCode ?? 0;
        const meta = { status, statusText: res.statusMessage ?? '', headers: responseHeaders(res) };
        // A streamed answer: text/event-stream, or whatever a loose server labels it, but not JSON.
        if (status >= 200 && status < 300 && !/\bjson\b/i.test(res.headers['content-type'] ?? '')) {
          res.setEncoding('utf8');
          const response = new Response(null, meta);
          streams.set(response, res);
          return resolve(response);
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            resolve(new Response(status === 204 || status === 205 || status === 304 ? null : Buffer.concat(chunks), meta));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
      request.on('error', reject);
      request.end(body ?? undefined);
    });
  const answerStream = (response: Response, provider: string, baseUrl: string): IncomingMessage => {
    const body = streams.get(response);
    if (body) return body;
    throw new ProviderError(`${provider}: ${baseUrl} answered a streaming request with ${response.headers.get('content-type') ?? 'no content type'}, not an event stream`);
  };
  return { fetch, answerStream };
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
