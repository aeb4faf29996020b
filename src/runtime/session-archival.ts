import fs from 'node:fs/promises';
import path from 'node:path';
import { summarizeMessages } from '../context/compact.js';
import { notice } from '../events.js';
import type { ModelProvider } from '../providers/provider.js';
import { loadSession, type LoadedSession } from '../session/session-loader.js';
import { sessionFileNames } from '../session/session-list.js';
import { projectDir } from '../session/session-paths.js';
import { SessionWriter } from '../session/session-writer.js';
import { errorMessage } from '../util/error-message.js';
import type { MemoryDistiller } from './memory-distill.js';

// Archival at start: a session that ended below the compaction threshold was never distilled. The
// next interactive start in the workspace summarises it in the background (the compaction prompt,
// so the offline model gives its deterministic summary), leaves the episodic entry and memory
// updates compaction would, and appends an `archived` notice to that session's file so it is
// never archived again.

/** The notice code that marks a session file as archived. */
export const ARCHIVED_CODE = 'archived';
/** Sessions archived at most per start, so a long backlog costs a few calls a start. */
export const ARCHIVE_PER_START = 3;
// Only the newest files are looked at: an old backlog is not read on every start.
const SCAN_NEWEST = 20;
// A claim older than this was left by a cairn that died mid-archival.
const STALE_CLAIM_MS = 10 * 60_000;

export interface ArchivalOptions {
  cairnHome: string;
  cwd: string;
  /** The session this start runs (new or resumed): never archived by itself. */
  currentId: string;
  provider: ModelProvider;
  distiller: MemoryDistiller;
  now: () => Date;
  signal: AbortSignal;
  /** One line per session archived (or that could not be). */
  tell: (line: string) => void;
}

/** Why a loaded session needs no archival, or undefined when it does. */
export function archivalSkipReason(session: LoadedSession): string | undefined {
  if (session.events.some((e) => e.type === 'notice' && e.code === ARCHIVED_CODE)) return 'archived already';
  if (session.events.some((e) => e.type === 'compact')) return 'distilled by compaction';
  if (!session.messages.some((m) => m.role === 'assistant')) return 'nothing was answered';
  return undefined;
}

/** Archives the ended sessions of the workspace that were never distilled; returns how many were. Never throws. */
export async function archiveEndedSessions(opts: ArchivalOptions): Promise<number> {
  const dir = projectDir(opts.cairnHome, opts.cwd);
  let archived = 0;
  try {
    for (const file of await newestSessionFiles(dir)) {
      if (archived >= ARCHIVE_PER_START || opts.signal.aborted) break;
      const id = path.basename(file, '.jsonl');
      if (id === opts.currentId) continue;
      if (await archiveOne(file, id, opts)) archived++;
    }
  } catch (error) {
    if (!opts.signal.aborted) opts.tell(`Archiving earlier sessions stopped: ${errorMessage(error)}`);
  }
  return archived;
}

/** The newest session files of the workspace, oldest of them first. */
async function newestSessionFiles(dir: string): Promise<string[]> {
  const files = await Promise.all(
    (await sessionFileNames(dir)).map(async (name) => {
      const file = path.join(dir, name);
      return { file, modified: (await fs.stat(file)).mtimeMs };
    }),
  );
  // The newest few, then oldest first: the episodic notes keep the order the sessions happened in.
  return files.sort((a, b) => b.modified - a.modified).slice(0, SCAN_NEWEST).reverse().map((f) => f.file);
}

async function archiveOne(file: string, id: string, opts: ArchivalOptions): Promise<boolean> {
  let session: LoadedSession;
  try {
    session = await loadSession(file);
  } catch {
    return false; // a file cairn cannot read is reported when someone opens it, not on every start
  }
  if (archivalSkipReason(session) !== undefined) return false;
  // Two cairns starting in the workspace at once: only the one that claims a session archives it.
  const claim = `${file.slice(0, -'.jsonl'.length)}.archiving`;
  if (!(await takeClaim(claim))) return false;
  const short = id.slice(0, 8);
  try {
    // Read again under the claim: the other cairn may have finished it just before.
    session = await loadSession(file);
    if (archivalSkipReason(session) !== undefined) return false;
    const summary = await summarizeMessages({
      messages: session.messages,
      provider: opts.provider,
      signal: opts.signal,
      ask: 'Summarise the conversation above for the project\'s notes on earlier sessions.',
    });
    const lines = await opts.distiller.distill(summary, `archived session ${short} (${session.messages.length} messages, started ${session.header.created.slice(0, 16).replace('T', ' ')})`);
    await markArchived(file, `Archived at the start of a later session: ${lines[0] ?? 'episodic note written'}`, opts.now);
    const first = session.prompts.marks[0]?.text.split('\n')[0]?.slice(0, 60);
    opts.tell([`Archived earlier session ${short}${first ? ` ("${first}")` : ''} in the background.`, ...lines].join('\n'));
    return true;
  } catch (error) {
    if (!opts.signal.aborted) opts.tell(`Could not archive earlier session ${short}: ${errorMessage(error)}; the next start tries again.`);
    return false;
  } finally {
    await fs.rm(claim, { force: true });
  }
}

/**
 * Appends the `archived` notice to the session file. The file keeps its modification time: `-c` and
 * /resume order sessions by it, and archiving is not using a session.
 */
async function markArchived(file: string, message: string, now: () => Date): Promise<void> {
  const before = await fs.stat(file);
  const writer = SessionWriter.resume(file, () => now().getTime());
  try {
    writer.append(notice('info', message, ARCHIVED_CODE));
  } finally {
    writer.close();
  }
  await fs.utimes(file, before.atime, before.mtime);
}

/** Creates the claim file; false when another live cairn holds it. A stale one (by the file's real time) is taken over. */
async function takeClaim(claim: string): Promise<boolean> {
  try {
    await fs.writeFile(claim, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (Date.now() - (await fs.stat(claim)).mtimeMs < STALE_CLAIM_MS) return false;
    await fs.rm(claim, { force: true });
    return takeClaim(claim);
  }
}
