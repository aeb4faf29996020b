import fs from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../events.js';
import { SESSION_FORMAT_VERSION, type SessionHeader } from './session-format.js';
import { sessionFolderOf, withBlobsStored } from './session-blobs.js';

export { SESSION_FORMAT_VERSION, type SessionHeader };

// Deltas are rebuilt from the finished blocks; a crash loses at most the block being streamed.
const NOT_PERSISTED = new Set<AgentEvent['type']>(['text_delta', 'thinking_delta', 'tool_progress', 'permission_request']);

/** A subagent's event inside its envelopes (one per level of nesting). */
function innermost(event: AgentEvent): AgentEvent {
  let inner = event;
  while (inner.type === 'subagent') inner = inner.event;
  return inner;
}

/**
 * Appends session records as they happen. Each line is written with one write(2) on an
 * O_APPEND descriptor, so a kill -9 leaves every earlier line intact and at worst a torn last line.
 */
export class SessionWriter {
  private fd: number | undefined;
  /**
   * A new session's file is created with its first record other than a notice, so opening cairn and
   * leaving writes nothing, even when start-up had something to say (archival, a warning).
   */
  private pendingHeader: SessionHeader | undefined;
  /** Notices before the file exists: written after the header when it is created. */
  private heldNotices: object[] = [];
  /** Set by close(): the session has ended, and what a stopped teammate still says is not part of it. */
  private closed = false;

  private constructor(readonly file: string, private readonly now: () => number) {}

  static create(file: string, header: Omit<SessionHeader, 'type' | 'version'>, now: () => number = Date.now): SessionWriter {
    const writer = new SessionWriter(file, now);
    writer.pendingHeader = { type: 'session_header', version: SESSION_FORMAT_VERSION, ...header };
    return writer;
  }

  /** Opens an existing session to continue it. A torn last line is ended so the next append starts clean. */
  static resume(file: string, now: () => number = Date.now): SessionWriter {
    const writer = new SessionWriter(file, now);
    const size = fs.statSync(file).size;
    writer.fd = fs.openSync(file, 'a');
    if (size > 0) {
      const buf = Buffer.alloc(1);
      const rfd = fs.openSync(file, 'r');
      fs.readSync(rfd, buf, 0, 1, size - 1);
      fs.closeSync(rfd);
      if (buf[0] !== 0x0a) fs.writeSync(writer.fd, '\n');
    }
    return writer;
  }

  append(event: AgentEvent): void {
    if (this.closed || NOT_PERSISTED.has(innermost(event).type)) return;
    // The terminal event carries the whole history; the file already has it line by line.
    // Images and PDFs go to the session's folder, the line names them (session-blobs.ts).
    const record = withBlobsStored(event.type === 'terminal' ? { ...event, messages: [] } : event, sessionFolderOf(this.file));
    if (this.pendingHeader && event.type === 'notice') {
      this.heldNotices.push({ ...record, ts: this.now() });
      return;
    }
    this.writeLine({ ...record, ts: this.now() });
  }

  private writeLine(record: object): void {
    if (this.pendingHeader) {
      const header = this.pendingHeader;
      this.pendingHeader = undefined;
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      this.fd = fs.openSync(this.file, 'a');
      this.writeLine(header);
      const held = this.heldNotices;
      this.heldNotices = [];
      for (const notice of held) this.writeLine(notice);
    }
    if (this.fd === undefined) throw new Error(`session file ${this.file} is closed`);
    fs.writeSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  get written(): boolean {
    return this.fd !== undefined;
  }

  close(): void {
    this.closed = true;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    this.pendingHeader = undefined;
    this.heldNotices = [];
  }
}
