// The end of a session file, read before the rest: the TUI shows a resumed session's last turns on
// its first frame while the whole file is read and folded behind it (session-loader.ts). A
// 10,000-message session is read whole in ~80 ms; its last half megabyte in ~5.
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import type { AgentEvent } from '../events.js';
import type { SessionHeader } from './session-format.js';
import { readRecordLine, readSessionHeader } from './session-records.js';

/** How much of the file's end is read: many screens of any real session. */
export const TAIL_BYTES = 512 * 1024;
/** Events enough for the first frame (a screenful is a few dozen): reading back stops at the prompt before them. */
export const TAIL_EVENTS = 300;

export interface SessionTail {
  header: SessionHeader;
  /** The last events, in order: from a prompt once there are `enough`, else all the tail holds. */
  events: AgentEvent[];
  /** Whether the tail read is the whole file. */
  whole: boolean;
}

/**
 * The last events of the file, each line read as loadSession reads it (session-records.ts), from
 * the whole lines of its last `bytes` (the whole file when smaller): read back from the end to the
 * prompt that starts the turn holding the `enough`th event. Lines it cannot read are left out here:
 * loadSession reads the whole file next and reports each with its line number, which a read from
 * the end cannot know. Undefined when the file is not one this cairn reads (no header, a newer
 * format, a FIFO): loadSession says why.
 */
export async function readSessionTail(file: string, options: { bytes?: number; enough?: number } = {}): Promise<SessionTail | undefined> {
  const { bytes = TAIL_BYTES, enough = TAIL_EVENTS } = options;
  let header: SessionHeader;
  let headerBytes: number;
  try {
    const read = await readSessionHeader(file);
    if (read.unreadable !== undefined) return undefined;
    ({ header, headerBytes } = read);
  } catch {
    return undefined;
  }
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    const from = Math.max(headerBytes, stat.size - bytes);
    const length = stat.size - from;
    const tailRead = await handle.read(Buffer.alloc(length), 0, length, from);
    const tail = tailRead.buffer.subarray(0, tailRead.bytesRead);
    const whole = from === headerBytes;
    // Started inside a line: the tail begins after its first newline.
    const first = whole ? 0 : tail.indexOf(10) + 1;
    if (!whole && first === 0) return { header, events: [], whole };
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
      const reading = readRecordLine(line.toString('utf8'), header.version);
      if (reading.kind !== 'event') continue;
      events.push(reading.event);
      if (events.length >= enough && reading.event.type === 'user_prompt') break;
    }
    events.reverse();
    return { header, events, whole };
  } finally {
    await handle.close();
  }
}
