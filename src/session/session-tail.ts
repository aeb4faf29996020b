// The end of a session file, read before the rest: the TUI shows a resumed session's last turns on
// its first frame while the whole file is read and folded behind it (session-loader.ts). A
// 10,000-message session is read whole in ~80 ms; its last half megabyte in ~5.
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { AgentEventSchema, type AgentEvent } from '../events.js';
import { migrateRecord, unreadableVersion, type SessionHeader } from './session-format.js';

/** How much of the file's end is read: many screens of any real session. */
export const TAIL_BYTES = 512 * 1024;
/** Events enough for the first frame (a screenful is a few dozen): reading back stops at the prompt before them. */
export const TAIL_EVENTS = 300;
const HEADER_BYTES = 64 * 1024;

export interface SessionTail {
  header: SessionHeader;
  /** The last events, in order: from a prompt once there are `enough`, else all the tail holds. */
  events: AgentEvent[];
  /** Whether the tail read is the whole file. */
  whole: boolean;
}

/**
 * The last events of the file, parsed as loadSession parses them, from the whole lines of its last
 * `bytes` (the whole file when smaller): read back from the end to the prompt that starts the turn
 * holding the `enough`th event. Lines it cannot read are left out: loadSession reads the file next
 * and reports each. Undefined when the file is not one this cairn reads (no header, a newer
 * format, a FIFO): loadSession says why.
 */
export async function readSessionTail(file: string, options: { bytes?: number; enough?: number } = {}): Promise<SessionTail | undefined> {
  const { bytes = TAIL_BYTES, enough = TAIL_EVENTS } = options;
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    const headRead = await handle.read(Buffer.alloc(Math.min(HEADER_BYTES, stat.size)), 0, Math.min(HEADER_BYTES, stat.size), 0);
    const head = headRead.buffer.subarray(0, headRead.bytesRead);
    const headerEnd = head.indexOf(10);
    if (headerEnd === -1) return undefined;
    const header = parseJson(head.subarray(0, headerEnd).toString('utf8').replace(/^\uFEFF/, '')) as Partial<SessionHeader> | undefined;
    if (header?.type !== 'session_header' || unreadableVersion(header.version) !== undefined) return undefined;
    const version = header.version ?? 0;

    const from = Math.max(headerEnd + 1, stat.size - bytes);
    const length = stat.size - from;
    const tailRead = await handle.read(Buffer.alloc(length), 0, length, from);
    const tail = tailRead.buffer.subarray(0, tailRead.bytesRead);
    const whole = from === headerEnd + 1;
    // Started inside a line: the tail begins after its first newline.
    const first = whole ? 0 : tail.indexOf(10) + 1;
    if (!whole && first === 0) return { header: header as SessionHeader, events: [], whole };
    const lines: Buffer[] = [];
    let start = first;
    for (let end = tail.indexOf(10, start); end !== -1; end = tail.indexOf(10, start)) {
      if (end > start) lines.push(tail.subarray(start, end));
      start = end + 1;
    }
    // A last line without its newline, as loadSession reads it (a torn one does not parse).
    if (start < tail.length) lines.push(tail.subarray(start));
    // From the end back to a prompt once `enough` events are in hand: whole turns, parsed only as needed.
    const events: AgentEvent[] = [];
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i];
      if (line === undefined) continue;
      const parsed = AgentEventSchema.safeParse(migrateRecord(parseJson(line.toString('utf8')), version));
      if (!parsed.success) continue;
      events.push(parsed.data);
      if (events.length >= enough && parsed.data.type === 'user_prompt') break;
    }
    events.reverse();
    return { header: header as SessionHeader, events, whole };
  } finally {
    await handle.close();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
