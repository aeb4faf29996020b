import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { nameOf, readSessionNames } from './session-names.js';
import { projectDir } from './session-paths.js';
import { readSessionRecords } from './session-records.js';

export interface SessionSummary {
  id: string;
  file: string;
  modified: Date;
  firstPrompt: string;
  messageCount: number;
  /** The name the user gave it (/save NAME). */
  name?: string;
  /** Why the file could not be read to the end (a FIFO named like a session, permissions). */
  problem?: string;
}

/** The session file names (`<id>.jsonl`) in a workspace's session folder; none when it does not exist yet. */
export async function sessionFileNames(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter((n) => n.endsWith('.jsonl'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Sessions of one workspace, newest first. Unreadable files are listed with what could be read. */
export async function listSessions(cairnHome: string, cwd: string): Promise<SessionSummary[]> {
  const dir = projectDir(cairnHome, cwd);
  const names = await sessionFileNames(dir);
  const [summaries, given] = await Promise.all([Promise.all(names.map((name) => summarize(path.join(dir, name)))), readSessionNames(cairnHome, cwd).catch(() => new Map<string, string>())]);
  const named = summaries.map((s) => {
    const name = nameOf(given, s.id);
    return name === undefined ? s : { ...s, name };
  });
  return named.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

async function summarize(file: string): Promise<SessionSummary> {
  const stat = await fs.stat(file);
  let firstPrompt: string | undefined;
  let messageCount = 0;
  let problem: string | undefined;
  try {
    for await (const record of readSessionRecords(file)) {
      if (record.kind !== 'event') continue;
      const { event } = record;
      if (event.type === 'user_prompt') {
        messageCount++;
        firstPrompt ??= event.text;
      } else if (event.type === 'assistant') messageCount++;
    }
  } catch (error) {
    // Listed with what is known and why the rest is not; opening it says the same.
    problem = errorMessage(error);
  }
  return { id: path.basename(file, '.jsonl'), file, modified: stat.mtime, firstPrompt: firstPrompt ?? '', messageCount, ...(problem === undefined ? {} : { problem }) };
}

/**
 * The session a full id, a name the user gave it, or any unique prefix of an id names (as /sessions
 * prints 8 characters), or why there is none: no match, or several (listed, so the user sees how
 * much more to type).
 */
export function matchSession(list: readonly SessionSummary[], idOrPrefix: string): { session: SessionSummary } | { problem: 'none' | 'ambiguous'; message: string } {
  const wanted = idOrPrefix.trim();
  const exact = list.find((s) => s.id === wanted) ?? list.find((s) => s.name !== undefined && s.name === wanted);
  if (exact) return { session: exact };
  const found = wanted === '' ? [] : list.filter((s) => s.id.startsWith(wanted));
  const [only] = found;
  if (found.length === 1 && only) return { session: only };
  if (found.length === 0) return { problem: 'none', message: `no session ${wanted} in this workspace` };
  const shown = found.slice(0, 5).map((s) => s.id.slice(0, Math.max(8, wanted.length + 4)));
  return { problem: 'ambiguous', message: `"${wanted}" matches ${found.length} sessions (${shown.join(', ')}${found.length > 5 ? ', …' : ''}); type more of the id` };
}
