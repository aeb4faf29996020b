import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A loopback web server serving the recorded pages in test/fixtures/web/, plus the shapes a fetch
// must survive: redirect chains, a redirect into loopback, a 10 MB body, a 404, a response slower
// than any timeout, JSON, a PDF. The DuckDuckGo endpoint answers POST /html/ by the query.

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'web');
export const webFixture = (name: string): Buffer => readFileSync(path.join(FIXTURES, name));

export interface WebServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request seen, `METHOD path`, with the search queries posted. */
  requests: { method: string; path: string; query?: string; host?: string }[];
  close(): Promise<void>;
}

const TEN_MB = 10 * 1024 * 1024;

function send(res: http.ServerResponse, status: number, type: string, body: Buffer | string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

export async function startWebServer(extra: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {}): Promise<WebServer> {
  const requests: WebServer['requests'] = [];
  const open = new Set<http.ServerResponse>();
  let origin = '';
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const entry: WebServer['requests'][number] = { method: req.method ?? 'GET', path: url.pathname, ...(req.headers.host ? { host: req.headers.host } : {}) };
      requests.push(entry);
      const custom = extra[url.pathname];
      if (custom) return custom(req, res);
      const chain = /^\/chain(\d+)\/(\d+)$/.exec(url.pathname);
      if (chain) {
        const [total, at] = [Number(chain[1]), Number(chain[2])];
        res.writeHead(at < total ? 302 : 200, at < total ? { location: `/chain${total}/${at + 1}` } : { 'content-type': 'text/plain' });
        return res.end(at < total ? '' : `end of a chain of ${total} redirects`);
      }
      switch (url.pathname) {
        case '/html/': {
          const q = new URLSearchParams(await readBody(req)).get('q') ?? url.searchParams.get('q') ?? '';
          entry.query = q;
          if (/captcha/i.test(q)) return send(res, 202, 'text/html; charset=UTF-8', webFixture('ddg-captcha.html'));
          if (/plumbus/i.test(q)) return send(res, 200, 'text/html; charset=UTF-8', webFixture('ddg-empty.html'));
          if (/blocked/i.test(q)) return send(res, 403, 'text/html', '<html><body><h1>403 Forbidden</h1></body></html>');
          return send(res, 200, 'text/html; charset=UTF-8', webFixture('ddg-results.html'));
        }
        case '/article': return send(res, 200, 'text/html; charset=utf-8', webFixture('news-article.html'));
        case '/gbk': return send(res, 200, 'text/html', webFixture('gbk-page.html'));
        case '/sjis': return send(res, 200, 'text/html; charset=Shift_JIS', webFixture('shift-jis-page.html'));
        case '/gbk-undeclared': return send(res, 200, 'text/html', Buffer.from(webFixture('gbk-page.html').toString('latin1').replace(/<meta[^>]*>/, ''), 'latin1'));
        case '/models.json': return send(res, 200, 'application/json', webFixture('models.json'));
        case '/paper.pdf': return send(res, 200, 'application/pdf', webFixture('paper.pdf'));
        case '/notes.txt': return send(res, 200, 'text/plain; charset=utf-8', 'plain notes\nline two\n');
        case '/to-loopback': res.writeHead(302, { location: `${origin}/secret` }); return res.end();
        case '/secret': return send(res, 200, 'text/plain', 'internal admin token: s3cr3t');
        case '/big': {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': TEN_MB });
          const line = Buffer.from(`${'x'.repeat(1023)}\n`);
          let sent = 0;
          const pump = (): void => {
            while (sent < TEN_MB) {
              sent += line.length;
              if (!res.write(line)) return void res.once('drain', pump);
            }
            res.end();
          };
          res.on('close', () => (sent = TEN_MB));
          return pump();
        }
        case '/slow': {
          // Headers at once, then nothing until the client gives up (or the server closes).
          open.add(res);
          res.writeHead(200, { 'content-type': 'text/html' });
          res.write('<html><body><p>first part');
          res.on('close', () => open.delete(res));
          return;
        }
        default: return send(res, 404, 'text/html', '<html><body><h1>Not Found</h1></body></html>');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
