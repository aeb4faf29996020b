// Session files are read line by line from a stream of bytes, never as one string: a string
// cannot pass 512 MiB in V8, so one huge record (or a huge file) made reading fail with an error
// that named no file. A line over the limit is skipped and reported with its number. The lines are
// read by session-line-batches.ts and made records by session-records.ts.

/** A longer line is not parsed: a record is one event, and real ones stay far below this. */
export const MAX_SESSION_LINE_BYTES = 64 * 1024 * 1024;

export type SessionLine =
  | { number: number; text: string }
  /** Over the limit: its length and first bytes (enough to see its record type). */
  | { number: number; tooLong: number; head: string };

export interface ReadLinesOptions {
  maxLineBytes?: number;
}
