import fs from 'node:fs/promises';
import path from 'node:path';
import { listSessions, matchSession, sessionFileNames } from '../session/session-list.js';
import { loadSession, type LoadedSession } from '../session/session-loader.js';
import { projectDir } from '../session/session-paths.js';

/** Which earlier session to continue, if any: --resume ID (or a unique prefix of it), or the newest one with -c. */
export async function findSessionToResume(opts: {
  cairnHome: string;
  cwd: string;
  resumeId?: string;
  continueLatest?: boolean;
}): Promise<{ file: string; loaded: LoadedSession } | { file?: undefined; note?: string }> {
  if (opts.resumeId) {
    const file = (await sessionNamed(opts.cairnHome, opts.cwd, opts.resumeId)) ?? (await matchOrExplain(opts.cairnHome, opts.cwd, opts.resumeId));
    try {
      return { file, loaded: await loadSession(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`--resume: no session ${opts.resumeId} in this workspace (${file})`, { cause: error });
      throw error;
    }
  }
  if (opts.continueLatest) {
    const latest = (await sessionFiles(opts.cairnHome, opts.cwd))[0];
    if (latest) return { file: latest.file, loaded: await loadSession(latest.file) };
    return { note: 'No earlier session in this workspace to continue; starting a new one.' };
  }
  return {};
}

// Finding the session needs only the names and times of the files: listSessions reads every
// session of the workspace to the end (for /resume's first prompts and counts), ~35 ms for one
// 10,000-message session before the one wanted was even opened.

/** The workspace's session files, newest first, read no further than their names and times. */
async function sessionFiles(cairnHome: string, cwd: string): Promise<{ id: string; file: string; modified: number }[]> {
  const dir = projectDir(cairnHome, cwd);
  const names = await sessionFileNames(dir);
  const files = await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      return { id: path.basename(name, '.jsonl'), file, modified: (await fs.stat(file)).mtime.getTime() };
    }),
  );
  return files.sort((a, b) => b.modified - a.modified);
}

/** The file of the session a full id or a unique prefix names (as matchSession decides), or undefined when it names none or several. */
async function sessionNamed(cairnHome: string, cwd: string, idOrPrefix: string): Promise<string | undefined> {
  const wanted = idOrPrefix.trim();
  if (wanted === '') return undefined;
  let names: string[];
  try {
    names = (await fs.readdir(projectDir(cairnHome, cwd))).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return undefined;
  }
  const ids = names.map((n) => n.slice(0, -'.jsonl'.length));
  const found = ids.includes(wanted) ? [wanted] : ids.filter((id) => id.startsWith(wanted));
  const [only] = found;
  return found.length === 1 && only !== undefined ? path.join(projectDir(cairnHome, cwd), `${only}.jsonl`) : undefined;
}

/** No single match: matchSession's own words for why (none, or which ones). */
async function matchOrExplain(cairnHome: string, cwd: string, idOrPrefix: string): Promise<string> {
  const match = matchSession(await listSessions(cairnHome, cwd), idOrPrefix);
  if (!('session' in match)) throw new Error(`--resume: ${match.message} (${projectDir(cairnHome, cwd)})`);
  return match.session.file;
}
