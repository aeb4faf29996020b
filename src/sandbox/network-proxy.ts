import http from 'node:http';
import net from 'node:net';
import { errorMessage } from '../util/error-message.js';

// The only way out of the sandbox's network: an HTTP proxy (CONNECT for TLS and anything else,
// absolute-URL requests for plain HTTP), serving the connections of the listener the bridge inside
// handed over (network-bridge.ts), or on a loopback port (macOS). Each
// request's host is decided first; a refused one gets 403 naming the domain and is remembered, so
// the command's result can say which domain was refused.

/** Whether a host may be reached; asks the user for a new one. Must not throw. */
export type DomainDecider = (host: string) => Promise<boolean>;

export interface NetworkProxy {
  /** Hosts refused while this proxy ran. */
  readonly refused: ReadonlySet<string>;
  /** The loopback TCP port it listens on, when started on one (macOS: no network namespace, no bridge). */
  readonly port?: number;
  /** Serves one connection accepted elsewhere (the sandbox's listener, adopted from the bridge). */
  serve(socket: net.Socket): void;
  close(): Promise<void>;
}

function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(authority) ?? /^([^:]+)(?::(\d+))?$/.exec(authority);
  if (!m?.[1]) return undefined;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1], port } : undefined;
}

function refuse(host: string): string {
  return `cairn's sandbox refused the network connection to ${host}: the domain is not in sandbox.network.allowedDomains and was not approved\n`;
}

/** Starts a proxy on a free loopback TCP port (`loopback`), or listening nowhere, for connections passed to `serve` (`bridged`). */
export async function startNetworkProxy(where: { loopback: true } | { bridged: true }, decide: DomainDecider): Promise<NetworkProxy> {
  const refused = new Set<string>();
  const sockets = new Set<net.Socket>();
  const allowed = async (host: string): Promise<boolean> => {
    const ok = await decide(host).catch(() => false);
    if (!ok) refused.add(host);
    return ok;
  };

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('cairn sandbox proxy: expected an absolute http:// URL\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`cairn sandbox proxy: ${url.protocol} is not proxied; use CONNECT\n`);
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    void allowed(host).then((ok) => {
      if (!ok) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end(refuse(host));
        return;
      }
      const headers = { ...req.headers };
      delete headers['proxy-connection'];
      delete headers['proxy-authorization'];
      const upstream = http.request(
        { host, port: url.port === '' ? 80 : Number(url.port), method: req.method, path: `${url.pathname}${url.search}`, headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`cairn sandbox proxy: ${host}: ${errorMessage(err)}\n`);
      });
      req.pipe(upstream);
    });
  });

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const target = splitHostPort(req.url ?? '', 443);
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    void allowed(target.host).then((ok) => {
      if (!ok) {
        const body = refuse(target.host);
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        return;
      }
      const upstream = net.connect(target.port, target.host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', (err) => {
        if (client.writable) client.end(`HTTP/1.1 502 Bad Gateway\r\n\r\n${target.host}: ${errorMessage(err)}\n`);
      });
      client.on('close', () => upstream.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  if ('loopback' in where) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  }
  const address = server.address();
  return {
    refused,
    ...(typeof address === 'object' && address !== null ? { port: address.port } : {}),
    serve: (socket) => server.emit('connection', socket),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
