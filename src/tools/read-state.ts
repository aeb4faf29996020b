import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { isErrno } from '../util/errno.js';

/** A file as the model last saw it: after its read_file, or after its own write. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  /** The content's hash, when it was small enough to keep one: a rewrite with the same bytes (touch, a formatter with nothing to do) is no change. */
  hash?: string;
}

/**
 * The files one agent's model has seen, keyed by real path. edit_file and write_file change an
 * existing file only when it is here and unchanged on disk since, so no change made meanwhile (by
 * the user, a formatter, another agent or a command) is overwritten unseen.
 */
export interface FileReadState {
  get(realPath: string): FileStamp | undefined;
  record(realPath: string, stamp: FileStamp): void;
  /** A copy for a subagent: it may edit what its parent read, while its own reads and writes stay its own. */
  clone(): FileReadState;
  /** Forgets everything (/clear: the model no longer has any file in its context). */
  clear(): void;
}

export function createFileReadState(entries?: Iterable<[string, FileStamp]>): FileReadState {
  const files = new Map(entries);
  return {
    get: (realPath) => files.get(realPath),
    record: (realPath, stamp) => void files.set(realPath, stamp),
    clone: () => createFileReadState(files),
    clear: () => files.clear(),
  };
}

/** Above this a file's content is not hashed; its modification time and size decide alone. */
const HASHED_BYTES = 1024 * 1024;

export function contentHash(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The stamp of a file now, hashing its content (given, or read) when it is small enough. */
export async function stampFile(realPath: string, content?: string | Buffer): Promise<FileStamp> {
  const stat = await fs.stat(realPath);
  const stamp: FileStamp = { mtimeMs: stat.mtimeMs, size: stat.size };
  if (stat.size > HASHED_BYTES) return stamp;
  return { ...stamp, hash: contentHash(content ?? (await fs.readFile(realPath))) };
}

/** Records a file the model has just seen or written; a file that cannot be stamped is simply not recorded. */
export async function recordSeen(state: FileReadState | undefined, realPath: string, content?: string | Buffer): Promise<void> {
  if (!state) return;
  try {
    state.record(realPath, await stampFile(realPath, content));
  } catch {
    // Not recorded: the next edit asks for a read, which is the safe side.
  }
}

/**
 * Why `tool` must not change this existing file now, or undefined when it may (the file was read
 * and is unchanged since, or does not exist). Without a state (a caller that tracks no reads) nothing is refused.
 */
export async function staleReadRefusal(state: FileReadState | undefined, realPath: string, shown: string, tool: string): Promise<string | undefined> {
  if (!state) return undefined;
  let stat;
  try {
    stat = await fs.stat(realPath);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return undefined; // a new file: nothing to lose
    return undefined; // the tool itself reports what is wrong with the path
  }
  if (!stat.isFile()) return undefined;
  const seen = state.get(realPath);
  if (!seen) {
    return `${tool} refused: ${shown} has not been read in this session, so its current content is unknown to you. Read it with read_file, then call ${tool} again.`;
  }
  if (stat.mtimeMs === seen.mtimeMs && stat.size === seen.size) return undefined;
  if (seen.hash !== undefined && stat.size <= HASHED_BYTES && stat.size === seen.size) {
    try {
      if (contentHash(await fs.readFile(realPath)) === seen.hash) return undefined;
    } catch {
      // Unreadable now: treat as changed.
    }
  }
  const when = new Date(stat.mtimeMs).toISOString().replace('T', ' ').slice(0, 19);
  return `${tool} refused: ${shown} changed on disk since you last read it (modified ${when} UTC, by the user, a formatter, another agent or a command). Read it again with read_file, then make your change to what is there now.`;
}
