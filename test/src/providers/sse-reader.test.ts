import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readServerSentEvents, type ServerSentEvent } from '../../../src/providers/sse-reader.js';

async function read(chunks: string[], signal = new AbortController().signal): Promise<ServerSentEvent[]> {
  const out: ServerSentEvent[] = [];
  for await (const e of readServerSentEvents(Readable.from(chunks, { objectMode: true }), signal)) out.push(e);
  return out;
}

const STREAM = 'event: message_start\ndata: {"a":1}\n\n: a comment\nevent: ping\ndata: {}\n\ndata: first\ndata:second\nid: 7\nretry: 10\n\n';
const EXPECTED: ServerSentEvent[] = [
  { event: 'message_start', data: '{"a":1}' },
  { event: 'ping', data: '{}' },
  { event: '', data: 'first\nsecond' },
];

describe('readServerSentEvents', () => {
  it('reads events, fields and comments as the spec says, whatever the chunk boundaries', async () => {
    expect(await read([STREAM])).toEqual(EXPECTED);
    // Every split point, including inside "\r\n" below.
    for (let i = 1; i < STREAM.length; i++) expect(await read([STREAM.slice(0, i), STREAM.slice(i)])).toEqual(EXPECTED);
    expect(await read([...STREAM])).toEqual(EXPECTED);
  });

  it('takes "\\r\\n" and a lone "\\r" as line ends, split across chunks too', async () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    const cr = STREAM.replace(/\n/g, '\r');
    for (const text of [crlf, cr]) {
      expect(await read([text])).toEqual(EXPECTED);
      for (let i = 1; i < text.length; i++) expect(await read([text.slice(0, i), text.slice(i)])).toEqual(EXPECTED);
    }
  });

  it('drops an event the stream ends in the middle of, and one with no data', async () => {
    expect(await read(['event: done\n\ndata: half'])).toEqual([]);
    expect(await read(['data: whole\n\ndata: half\n'])).toEqual([{ event: '', data: 'whole' }]);
  });

  it('an abort ends the read at once, with an AbortError, and destroys the body', async () => {
    const body = new Readable({ read() {} });
    body.setEncoding('utf8');
    const controller = new AbortController();
    const events = readServerSentEvents(body, controller.signal);
    body.push('data: one\n\n');
    expect((await events.next()).value).toEqual({ event: '', data: 'one' });
    const next = events.next();
    controller.abort();
    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    expect(body.destroyed).toBe(true);
  });
});
