import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHttpFetch } from '../../../src/providers/node-http-fetch.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createNodeHttpFetch', () => {
  it('sends the method, headers and body; a JSON or error response reads as an ordinary Response', async () => {
    const seen: { method?: string; key?: string; body?: string }[] = [];
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, key: req.headers['x-api-key'] as string, body });
        const failing = req.url === '/fail';
        res.writeHead(failing ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '3' });
        res.end(JSON.stringify(failing ? { error: { type: 'rate_limit_error' } } : { ok: true }));
      });
    });
    const { fetch, answerStream } = createNodeHttpFetch();
    const ok = await fetch(`${url}/v1/x`, { method: 'POST', headers: { 'x-api-key': 'sk-1' }, body: '{"q":1}' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    expect(() => answerStream(ok, 'test', url)).toThrow(`test: ${url} answered a streaming request with application/json, not an event stream`);
    const failed = await fetch(`${url}/fail`, { headers: new Headers({ 'x-api-key': 'sk-2' }) });
    expect(failed.status).toBe(429);
    expect(failed.headers.get('retry-after')).toBe('3');
    expect(await failed.json()).toEqual({ error: { type: 'rate_limit_error' } });
    expect(seen).toEqual([
      { method: 'POST', key: 'sk-1', body: '{"q":1}' },
      { method: 'GET', key: 'sk-2', body: '' },
    ]);
  });

  it('an event stream is handed over as the socket stream, read as it arrives', async () => {
    let finish: () => void = () => undefined;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write('data: é\n\n');
      finish = () => res.end('data: end\n\n');
    });
    const { fetch, answerStream } = createNodeHttpFetch();
    const response = await fetch(url, { method: 'POST', body: '{}' });
    const body = answerStream(response, 'test', url);
    const chunks: string[] = [];
    for await (const chunk of body as AsyncIterable<string>) {
      chunks.push(chunk);
      finish();
    }
    expect(chunks.join('')).toBe('data: é\n\ndata: end\n\n');
  });

  it('rejects a refused connection with its code, and an aborted request', async () => {
    const url = await serve(() => undefined);
    const { fetch } = createNodeHttpFetch();
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const controller = new AbortController();
    const pending = fetch(url, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
