import fs from 'node:fs/promises';
import path from 'node:path';
import { listSessions, type SessionSummary } from '../session/session-list.js';

/** The session files of every workspace cairn has worked in, found from their headers. */
export interface WorkspaceSessions {
  cwd: string;
  sessions: SessionSummary[];
}

const HEADER_BYTES = 4096;

/** The workspace a session file belongs to, from its first line (the header); undefined if unreadable. */
async function headerCwd(file: string): Promise<string | undefined> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, 'r');
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0);
    const first = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    const header = JSON.parse(first) as { type?: unknown; cwd?: unknown };
    return header.type === 'session_header' && typeof header.cwd === 'string' ? header.cwd : undefined;
  } catch {
    return undefined; // not a session file cairn can place; it is left out of the list
  } finally {
    await handle?.close();
  }
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
    const first = names[0];
    if (!first) continue;
    const cwd = await headerCwd(path.join(root, dir, first));
    if (cwd) cwds.add(cwd);
  }
  const out: WorkspaceSessions[] = [];
  for (const cwd of cwds) out.push({ cwd, sessions: await listSessions(cairnHome, cwd) });
  return out.sort((a, b) => (b.sessions[0]?.modified.getTime() ?? 0) - (a.sessions[0]?.modified.getTime() ?? 0));
}
