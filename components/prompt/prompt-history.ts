import { appendFile, mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// Prompt history shared across sessions: `$CAIRN_HOME/history.jsonl`, one `{text, ts, cwd}` a line.

export const PROMPT_HISTORY_LIMIT = 1000;

export type PromptHistoryEntry = { text: string; ts: string; cwd: string };

export type PromptHistoryLoad = {
  entries: string[];
  /** Lines that could not be read, e.g. `history.jsonl:12: not JSON`. */
  problems: string[];
};

/** Newest last, at most the last 1000; corrupt lines are skipped and reported. */
export async function loadPromptHistoryWithProblems(file: string): Promise<PromptHistoryLoad> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], problems: [] };
    throw err;
  }
  const entries: string[] = [];
  const problems: string[] = [];
  const lines = raw.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const text = parseEntry(line);
    if (typeof text === 'string') {
      // Consecutive duplicates (e.g. from two sessions) would make Up feel stuck.
      if (entries[entries.length - 1] !== text) entries.push(text);
    } else {
      problems.push(`${file}:${i + 1}: ${text.problem}`);
    }
  });
  return { entries: entries.slice(-PROMPT_HISTORY_LIMIT), problems };
}

export async function loadPromptHistory(file: string): Promise<string[]> {
  return (await loadPromptHistoryWithProblems(file)).entries;
}

function parseEntry(line: string): string | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { problem: 'not an object' };
  const text = (value as { text?: unknown }).text;
  if (typeof text !== 'string') return { problem: 'field "text" is not a string' };
  return text;
}

// Appends to one file run one after another, so "same as the previous entry" is checked
// against what is really the last line.
const queues = new Map<string, Promise<unknown>>();

/** Appends unless `text` equals the previous entry. Resolves to whether a line was written. */
export function appendPromptHistory(file: string, text: string, cwd: string): Promise<boolean> {
  const run = async (): Promise<boolean> => {
    if (text.trim() === '') return false;
    if ((await readLastEntry(file)) === text) return false;
    const entry: PromptHistoryEntry = { text, ts: new Date().toISOString(), cwd };
    await mkdir(dirname(file), { recursive: true });
    await appendFile(file, JSON.stringify(entry) + '\n', 'utf8');
    return true;
  };
  const previous = queues.get(file) ?? Promise.resolve();
  const result = previous.then(run, run);
  const tail = result.catch(() => undefined);
  queues.set(file, tail);
  void tail.then(() => {
    if (queues.get(file) === tail) queues.delete(file);
  });
  return result;
}

const TAIL_BYTES = 64 * 1024;

/** Text of the last readable line, reading only the file's tail when that holds a whole line. */
async function readLastEntry(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - start);
    await handle.read(buf, 0, buf.length, start);
    const lines = buf.toString('utf8').split('\n');
    // The first line of a partial tail may be cut in the middle; never trust it.
    const whole = start === 0 ? lines : lines.slice(1);
    for (let i = whole.length - 1; i >= 0; i--) {
      const line = whole[i] ?? '';
      if (line.trim() === '') continue;
      const text = parseEntry(line);
      if (typeof text === 'string') return text;
    }
    if (start === 0) return undefined;
  } finally {
    await handle.close();
  }
  const { entries } = await loadPromptHistoryWithProblems(file);
  return entries[entries.length - 1];
}
