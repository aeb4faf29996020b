import type { Readable } from 'node:stream';
import { AbortError } from '../util/abort.js';

// Server-sent events (https://html.spec.whatwg.org/multipage/server-sent-events.html) read from a
// response body of strings: fields `event` and `data` (several data lines join with "\n"),
// comments and other fields ignored, an event dispatched at a blank line; an event the stream
// ends in the middle of is dropped, as the spec says.

export interface ServerSentEvent {
  /** The `event` field; '' when the event has none. */
  event: string;
  data: string;
}

/** The events of `body` (utf-8 strings) as they arrive; an abort of `signal` ends the read at once. */
export async function* readServerSentEvents(body: Readable, signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
  const stop = (): void => {
    body.destroy(new AbortError('The model call was aborted'));
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  let rest = '';
  let event = '';
  let data: string[] = [];
  try {
    for await (const chunk of body as AsyncIterable<string>) {
      let text = rest + chunk;
      // A "\r" at the end may be the first half of "\r\n": it waits for the next chunk.
      const held = text.endsWith('\r') ? 1 : 0;
      if (text.includes('\r')) text = text.slice(0, text.length - held).replace(/\r\n?/g, '\n') + (held ? '\r' : '');
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        const line = text.slice(start, end);
        start = end + 1;
        if (line === '') {
          if (data.length > 0) yield { event, data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
      }
      rest = text.slice(start);
    }
    // The last line ended in a lone "\r": a blank line, which ends the event.
    if (rest === '\r' && data.length > 0) yield { event, data: data.join('\n') };
  } finally {
    signal.removeEventListener('abort', stop);
    if (!body.destroyed) body.destroy();
  }
}
