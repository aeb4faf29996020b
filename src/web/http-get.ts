import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';

export interface HopResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body stopped at the byte cap. */
  truncated: boolean;
}

export interface HopOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The address already checked for this host: the connection goes there and nowhere else (no second DNS answer). */
  address: LookupAddress;
  maxBytes: number;
  signal: AbortSignal;
}

export const USER_AGENT = 'Mozilla/5.0 (compatible; cairn/0.1; +https://github.com/cairn)';

/** One HTTP(S) request, no redirects followed. Rejects on network errors and on abort. */
export function httpHop(url: URL, opts: HopOptions): Promise<HopResponse> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const pinned = opts.address;
    const req = client.request(
      url,
      {
        method: opts.method ?? 'GET',
        headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5', 'accept-encoding': 'identity', ...opts.headers },
        signal: opts.signal,
        // Pinned to the checked address, so a DNS answer that changes between check and connect is never used.
        lookup: (_host, options, cb) => {
          if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: LookupAddress[]) => void)(null, [pinned]);
          else cb(null, pinned.address, pinned.family);
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = opts.maxBytes - size;
          if (chunk.length >= room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated });
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
