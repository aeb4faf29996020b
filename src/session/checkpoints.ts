import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../util/error-message.js';

/**
 * One file change a tool made: the file's content just before it (null: the file did not exist),
 * keyed by the prompt that caused it: `prompt`, that prompt's number in the session (PromptMark.id).
 * `turn` is where the prompt's message sat in the history then; records written before `prompt`
 * existed have only that, which restarts at 0 after /clear or a compaction, so they are matched by it
 * as they always were.
 */
export const checkpointRecordSchema = z.object({
  type: z.literal('checkpoint'),
  turn: z.number().int().nonnegative(),
  prompt: z.number().int().nonnegative().optional(),
  /** Absolute path the tool wrote, resolved through symlinks the way the tool resolved it. */
  path: z.string().min(1),
  /** The content as text when it is valid UTF-8; with `encoding: 'base64'`, its exact bytes in base64. */
  before: z.string().nullable(),
  encoding: z.literal('base64').optional(),
});

export type CheckpointRecord = z.infer<typeof checkpointRecordSchema>;

/** Which prompt a change belongs to, or which prompt to rewind to (a PromptMark's turn and id). */
export interface CheckpointKey {
  turn: number;
  id: number;
}

/** Whether the change in `record` was made at or after `prompt` (by it or a later one). */
function atOrAfter(record: CheckpointRecord, prompt: CheckpointKey): boolean {
  return record.prompt !== undefined ? record.prompt >= prompt.id : record.turn >= prompt.turn;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** How a file's bytes are kept in a record: as text when they decode as UTF-8, else base64 (text would be lossy). */
export function encodeContent(bytes: Buffer | null): Pick<CheckpointRecord, 'before' | 'encoding'> {
  if (bytes === null) return { before: null };
  try {
    return { before: strictUtf8.decode(bytes) };
  } catch {
    return { before: bytes.toString('base64'), encoding: 'base64' };
  }
}

/** The exact bytes a record kept (null: the file did not exist). */
export function contentOf(record: CheckpointRecord): Buffer | null {
  if (record.before === null) return null;
  return Buffer.from(record.before, record.encoding === 'base64' ? 'base64' : 'utf8');
}

/**
 * Checkpoints live beside the session file under $CAIRN_HOME (in the session's own folder, with its
 * saved tool results; not a *.jsonl beside it, which the session list would take for a session),
 * never in the user's repository.
 */
export function checkpointFile(sessionFile: string): string {
  return path.join(sessionFile.replace(/\.jsonl$/, ''), 'checkpoints.jsonl');
}

/** Appends records one line each (O_APPEND), so a crash loses at most a torn last line, which loading skips. */
export class CheckpointStore {
  private records: CheckpointRecord[];

  constructor(readonly file: string, records: readonly CheckpointRecord[] = []) {
    this.records = [...records];
  }

  /** Reads the records back (after `cairn -c`); a missing file is no checkpoints, a torn or bad line is reported and skipped. */
  static async load(file: string, warn: (message: string) => void = () => {}): Promise<CheckpointStore> {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn(`cannot read checkpoints ${file}: ${errorMessage(err)}`);
      return new CheckpointStore(file);
    }
    const records: CheckpointRecord[] = [];
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        const parsed = checkpointRecordSchema.safeParse(JSON.parse(line));
        if (parsed.success) records.push(parsed.data);
        else warn(`${file} line ${i + 1}: not a checkpoint record, skipped`);
      } catch {
        warn(`${file} line ${i + 1}: unreadable (torn write?), skipped`);
      }
    });
    return new CheckpointStore(file, records);
  }

  all(): readonly CheckpointRecord[] {
    return this.records;
  }

  async record(record: Omit<CheckpointRecord, 'type'>): Promise<void> {
    const full: CheckpointRecord = { type: 'checkpoint', ...record };
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const handle = await fs.open(this.file, 'a', 0o600);
    try {
      await handle.write(JSON.stringify(full) + '\n');
    } finally {
      await handle.close();
    }
    this.records.push(full);
  }

  /** After the conversation is rewound to before `prompt`, its and later checkpoints no longer belong to any prompt. */
  async forgetFrom(prompt: CheckpointKey): Promise<void> {
    const kept = this.records.filter((r) => !atOrAfter(r, prompt));
    if (kept.length === this.records.length) return;
    const tmp = `${this.file}.tmp`;
    await fs.writeFile(tmp, kept.map((r) => JSON.stringify(r) + '\n').join(''), { mode: 0o600 });
    await fs.rename(tmp, this.file);
    this.records = kept;
  }
}

export interface RewindChange {
  path: string;
  /** restore: write back `content` (the file's exact bytes); delete: the tools created the file. */
  action: 'restore' | 'delete';
  content: Buffer | null;
}

/**
 * The files restoring code to just before `prompt` changes: for each path the content before its
 * first change at or after `prompt`, listed newest change first.
 */
export function planRewind(records: readonly CheckpointRecord[], prompt: CheckpointKey): RewindChange[] {
  const earliest = new Map<string, CheckpointRecord>();
  const latestIndex = new Map<string, number>();
  records.forEach((r, i) => {
    if (!atOrAfter(r, prompt)) return;
    if (!earliest.has(r.path)) earliest.set(r.path, r);
    latestIndex.set(r.path, i);
  });
  return [...earliest.values()]
    .sort((a, b) => (latestIndex.get(b.path) ?? 0) - (latestIndex.get(a.path) ?? 0))
    .map((r) => ({ path: r.path, action: r.before === null ? 'delete' : 'restore', content: contentOf(r) }));
}
