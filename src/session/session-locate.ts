// Finding a session to resume by its file's name and time, without reading any session file: the
// TUI finds it before the engine loads, to show its end on the first frame.
import fs from 'node:fs/promises';
import path from 'node:path';
import { sessionFileNames } from './session-list.js';
import { readSessionNames } from './session-names.js';
import { projectDir } from './session-paths.js';

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

/** The file of the session a full id, its name or a unique prefix names (as matchSession decides), or undefined when it names none or several. */
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
  // A name the user gave it (/save NAME) comes after an exact id and before a prefix, as in matchSession.
  const named = ids.includes(wanted) ? undefined : (await readSessionNames(cairnHome, cwd).catch(() => undefined))?.get(wanted);
  const found = ids.includes(wanted) ? [wanted] : named !== undefined && ids.includes(named) ? [named] : ids.filter((id) => id.startsWith(wanted));
  const [only] = found;
  return found.length === 1 && only !== undefined ? path.join(projectDir(cairnHome, cwd), `${only}.jsonl`) : undefined;
}

/** The file `--resume ID` (a full id, a session's name or a unique prefix) or `-c` (the newest) would open, when there is exactly one. */
export async function locateSessionToResume(opts: { cairnHome: string; cwd: string; resumeId?: string; continueLatest?: boolean }): Promise<string | undefined> {
  if (opts.resumeId) return sessionNamed(opts.cairnHome, opts.cwd, opts.resumeId);
  if (opts.continueLatest) return (await sessionFiles(opts.cairnHome, opts.cwd))[0]?.file;
  return undefined;
}
