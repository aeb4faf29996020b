import type { ServerResponse } from 'node:http';

export const HEARTBEAT_MS = 15_000;

/** A Server-Sent Events stream on `res`: headers, numbered messages, a comment heartbeat. */
export interface SseStream {
  send(id: number | undefined, event: string, data: unknown): void;
  close(): void;
  readonly closed: boolean;
}

export function openSse(res: ServerResponse, opts: { heartbeatMs?: number; onClose(): void }): SseStream {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // Tells EventSource how soon to reconnect after a drop.
  res.write('retry: 1000\n\n');
  let closed = false;
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), opts.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();
  const finish = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    opts.onClose();
  };
  res.on('close', finish);
  return {
    send(id, event, data) {
      if (closed) return;
      // JSON has no raw newlines, so one data line per message.
      res.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close() {
      finish();
      res.end();
    },
    get closed() {
      return closed;
    },
  };
}
