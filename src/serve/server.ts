import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAccess, type AccessPolicy } from './access-policy.js';
import { route, sendError, type RouteContext } from './routes.js';

export interface CairnServer {
  /** The address to open, with the token when one is required. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the HTTP server for the web page and its API; resolves once it listens. */
export async function startServer(opts: Omit<RouteContext, 'hub'> & { hub: RouteContext['hub']; host: string; port: number; token?: string }): Promise<CairnServer> {
  let policy: AccessPolicy = { host: opts.host, port: opts.port, ...(opts.token ? { token: opts.token } : {}) };
  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://server.invalid');
    } catch {
      sendError(res, new Error('malformed request URL'));
      return;
    }
    try {
      checkAccess(req, url, policy);
    } catch (error) {
      sendError(res, error);
      return;
    }
    route(req, res, url, opts).catch((error: unknown) => sendError(res, error));
  });
  // Event streams stay open; keep-alive sockets must not hold close() up.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  policy = { ...policy, port };
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${shownHost}:${port}/${opts.token ? `?token=${encodeURIComponent(opts.token)}` : ''}`;
  return {
    url,
    port,
    close: () =>
      opts.hub.closeAll().then(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
  };
}
