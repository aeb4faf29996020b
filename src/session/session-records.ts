// The one reader of session files: each line parsed, migrated to today's format and checked
// against the event schema. The loader, the resume tail, the session list and cairn serve's index
// fold over what it yields instead of each reading the file its own way.
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { describeFileType, FileReadError } from '../util/read-text-file.js';
import { AgentEventSchema, type AgentEvent } from '../events.js';
import { MIGRATIONS, migrateRecord, SESSION_FORMAT_VERSION, unreadableVersion, type RecordMigration, type SessionHeader } from './session-format.js';
import { readSessionLineBatches } from './session-line-batches.js';
import { MAX_SESSION_LINE_BYTES, type ReadLinesOptions } from './session-lines.js';

/** A file cairn will not read as a session: no header, a newer format, empty. The message names the file. */
export class SessionFormatError extends Error {}

/** The format a reader speaks and its migrations; tests pass their own. */
export interface SessionFormat {
  version: number;
  migrations: Readonly<Record<number, RecordMigration>>;
}

const CURRENT: SessionFormat = { version: SESSION_FORMAT_VERSION, migrations: MIGRATIONS };

/** One line of a session file after the header, as this cairn understands it. */
export type RecordReading =
  | { kind: 'event'; event: AgentEvent }
  /** Valid JSON that fits no event this cairn knows, even after migration (another version, a hand edit): kept in the file. */
  | { kind: 'unknown'; record: unknown; reason: string }
  /** Not JSON at all (a write torn by a crash, a hand edit). */
  | { kind: 'broken' };

/** What the reader yields, in file order; `line` counts from 1. Every problem carries a warning naming the file and line. */
export type SessionRecord =
  | { kind: 'header'; line: number; header: SessionHeader }
  | { kind: 'event'; line: number; event: AgentEvent }
  | { kind: 'unknown'; line: number; record: unknown; reason: string; warning: string }
  | { kind: 'broken'; line: number; warning: string };

export interface ReadRecordsOptions extends ReadLinesOptions {
  format?: SessionFormat;
}

/** One record line (after the header) of a file written at `version`, read as `format` reads it. */
export function readRecordLine(text: string, version: number, format: SessionFormat = CURRENT): RecordReading {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'broken' };
  }
  const parsed = AgentEventSchema.safeParse(migrateRecord(raw, version, format.version, format.migrations));
  if (parsed.success) return { kind: 'event', event: parsed.data };
  const issue = parsed.error.issues[0];
  return { kind: 'unknown', record: raw, reason: issue ? `${issue.path.join('.') || 'type'}: ${issue.message}` : 'unknown' };
}

/** The header a first line holds, whatever its format version, or undefined when it holds none. */
function headerOf(text: string): SessionHeader | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  return (raw as Partial<SessionHeader> | undefined)?.type === 'session_header' ? (raw as SessionHeader) : undefined;
}

/** The header a first line holds, or why the file is not one `format` reads (the message names the file). */
export function readHeaderLine(file: string, text: string, line: number, format: SessionFormat = CURRENT): SessionHeader {
  const header = headerOf(text);
  if (!header) throw new SessionFormatError(`${file}:${line}: not a cairn session file (no header)`);
  const problem = unreadableVersion(header.version, format.version, format.migrations);
  if (problem) throw new SessionFormatError(`${file}: ${problem}`);
  return header;
}

/**
 * The file's records, streamed a line at a time (a session can outgrow a string). The first record
 * is the header; a file without one, of a newer format, or empty rejects with SessionFormatError; a
 * FIFO or device with a FileReadError; a missing file with the ENOENT error itself. A line that is
 * not JSON or is over `maxLineBytes` comes as `broken` and the reading goes on: nothing after it is
 * lost. A line not JSON that is the file's last is said to be cut off by a crash.
 */
export async function* readSessionRecords(file: string, options: ReadRecordsOptions = {}): AsyncGenerator<SessionRecord> {
  const format = options.format ?? CURRENT;
  const limit = options.maxLineBytes ?? MAX_SESSION_LINE_BYTES;
  let header: SessionHeader | undefined;
  // A line that is not JSON is held until the next line shows whether it was the last.
  let notJson: number | undefined;
  const notJsonRecord = (line: number, last: boolean): SessionRecord => ({
    kind: 'broken',
    line,
    warning: `${file}:${line}: skipped a line that is not valid JSON${last ? ' (cut off by a crash?)' : ''}`,
  });
  for await (const batch of readSessionLineBatches(file, options)) {
    for (const line of batch) {
      if ('text' in line && line.text.trim() === '') continue;
      if (notJson !== undefined) yield notJsonRecord(notJson, false);
      notJson = undefined;
      if ('tooLong' in line) {
        yield { kind: 'broken', line: line.number, warning: `${file}:${line.number}: skipped a line of ${line.tooLong} bytes, over the ${limit}-byte limit for one record` };
        continue;
      }
      if (!header) {
        // A line before the header that is not JSON is reported like any other; the next is looked at.
        if (!isJson(line.text)) {
          notJson = line.number;
          continue;
        }
        header = readHeaderLine(file, line.text, line.number, format);
        yield { kind: 'header', line: line.number, header };
        continue;
      }
      const reading = readRecordLine(line.text, header.version, format);
      if (reading.kind === 'event') yield { kind: 'event', line: line.number, event: reading.event };
      else if (reading.kind === 'broken') notJson = line.number;
      else yield { ...reading, line: line.number, warning: `${file}:${line.number}: kept a record this cairn cannot read (${reading.reason}); it stays in the file but is not shown` };
    }
  }
  if (notJson !== undefined) yield notJsonRecord(notJson, true);
  if (!header) throw new SessionFormatError(`${file}: empty session file`);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const HEADER_BYTES = 64 * 1024;

/**
 * The header alone, from the file's first line (at most 64 KiB are read): what cairn serve's index
 * needs to place a file in its workspace and the resume tail to start from. A header of a format
 * this cairn cannot read still says where the file belongs: `unreadable` says why it cannot be
 * opened. Rejects with SessionFormatError when the first line holds no header, with a FileReadError
 * for a FIFO or device, with ENOENT for a missing file.
 */
export async function readSessionHeader(file: string): Promise<{ header: SessionHeader; headerBytes: number; unreadable?: string }> {
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new FileReadError(file, `is ${describeFileType(stat)}, not a session file; not read`, true);
    const size = Math.min(HEADER_BYTES, stat.size);
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(size), 0, size, 0);
    const head = buffer.subarray(0, bytesRead);
    const end = head.indexOf(10);
    if (bytesRead === 0) throw new SessionFormatError(`${file}: empty session file`);
    const header = end === -1 ? undefined : headerOf(head.subarray(0, end).toString('utf8'));
    if (!header) throw new SessionFormatError(`${file}:1: not a cairn session file (no header)`);
    const problem = unreadableVersion(header.version);
    return { header, headerBytes: end + 1, ...(problem === undefined ? {} : { unreadable: `${file}: ${problem}` }) };
  } finally {
    await handle.close();
  }
}
