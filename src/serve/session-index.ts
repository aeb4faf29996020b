import fs from 'node:fs/promises';
import path from 'node:path';
import { listSessions, type SessionSummary } from '../session/session-list.js';
import { readSessionHeader } from '../session/session-records.js';

/** The session files of every workspace cairn has worked in, found from their headers. */
export interface WorkspaceSessions {
  cwd: string;
  sessions: SessionSummary[];
}

/**
 * The workspace a folder's session files belong to, from the first header that reads (a broken
 * file does not hide its neighbours); undefined when none does.
 */
async function folderCwd(dir: string, names: readonly string[]): Promise<string | undefined> {
  for (const name of names) {
    try {
      const { cwd } = (await readSessionHeader(path.join(dir, name))).header;
      if (typeof cwd === 'string') return cwd;
    } catch {
      // not a session file cairn can place: the next one may be
    }
  }
  return undefined;
}

/** Workspaces with saved sessions (plus `extra`, e.g. the server's own), newest session first in each. */
export async function indexSessions(cairnHome: string, extra: readonly string[]): Promise<WorkspaceSessions[]> {
  const root = path.join(cairnHome, 'projects');
  const cwds = new Set(extra);
  let dirs: string[] = [];
  try {
    dirs = await fs.readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const dir of dirs) {
    const names = (await fs.readdir(path.join(root, dir)).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl'));
    const cwd = await folderCwd(path.join(root, dir), names);
    if (cwd !== undefined) cwds.add(cwd);
  }
  const out: WorkspaceSessions[] = [];
  for (const cwd of cwds) out.push({ cwd, sessions: await listSessions(cairnHome, cwd) });
  return out.sort((a, b) => (b.sessions[0]?.modified.getTime() ?? 0) - (a.sessions[0]?.modified.getTime() ?? 0));
}
