import type { ModelRequest, ModelStreamEvent } from './provider.js';
import type { Failure, FailureContext } from './failure.js';

// A stream that sends its headers and then nothing waits forever on the socket: each attempt
// gets a timer, restarted by every event on the wire (pings included: the providers call
// request.onActivity) and every event the provider yields. When it runs out the attempt is
// aborted and fails as StreamIdleError, which the retry loop treats as a dropped connection.

/** Default wait for the next stream event (config.json `streamIdleTimeoutSeconds`). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 90_000;

export class StreamIdleError extends Error {
  constructor(readonly idleMs: number) {
    super(`no data from the model for ${formatSeconds(idleMs)}`);
    this.name = 'StreamIdleError';
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

export function idleFailure(ctx: FailureContext, err: StreamIdleError): Failure {
  return {
    retryable: true,
    label: `stream stalled (${err.message})`,
    message: `${ctx.provider}: the stream from ${ctx.baseUrl} stalled: ${err.message} (streamIdleTimeoutSeconds in config.json sets how long to wait)`,
  };
}

/**
 * Runs one attempt with its own abort signal (the caller's aborts it too) and an idle timer that
 * counts only while the provider is waiting, not while the consumer holds an event.
 */
export async function* withIdleTimeout(
  attempt: (request: ModelRequest) => AsyncIterable<ModelStreamEvent>,
  request: ModelRequest,
  idleMs: number,
): AsyncGenerator<ModelStreamEvent> {
  const inner = new AbortController();
  const outer = request.signal;
  const follow = (): void => inner.abort(outer.reason);
  if (outer.aborted) follow();
  else outer.addEventListener('abort', follow, { once: true });
  let idled = false;
  // One timer for the attempt, not one per event: activity only notes the time, and the timer,
  // when it fires, waits again for what is left (or longer while the consumer holds an event).
  let lastActivity = Date.now();
  let holding = false;
  let timer: NodeJS.Timeout | undefined;
  const wait = (ms: number): void => {
    timer = setTimeout(check, ms);
  };
  const check = (): void => {
    const idle = Date.now() - lastActivity;
    if (holding || idle < idleMs) return wait(holding ? idleMs : idleMs - idle);
    idled = true;
    inner.abort(new StreamIdleError(idleMs));
  };
  const activity = (): void => {
    lastActivity = Date.now();
  };
  try {
    wait(idleMs);
    for await (const event of attempt({ ...request, signal: inner.signal, onActivity: activity })) {
      holding = true;
      yield event;
      holding = false;
      activity();
    }
  } catch (error) {
    if (idled && !outer.aborted) throw new StreamIdleError(idleMs);
    throw error;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', follow);
  }
}
