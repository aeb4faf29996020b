import { listSessions, matchSession } from '../session/session-list.js';
import { locateSessionToResume } from '../session/session-locate.js';
import { loadSession, type LoadedSession } from '../session/session-loader.js';
import { projectDir } from '../session/session-paths.js';

/** Which earlier session to continue, if any: --resume ID (or a unique prefix of it), or the newest one with -c. */
export async function findSessionToResume(opts: {
  cairnHome: string;
  cwd: string;
  resumeId?: string;
  continueLatest?: boolean;
}): Promise<{ file: string; loaded: LoadedSession } | { file?: undefined; note?: string }> {
  const located = await locateSessionToResume(opts);
  if (opts.resumeId) {
    const file = located ?? (await matchOrExplain(opts.cairnHome, opts.cwd, opts.resumeId));
    try {
      return { file, loaded: await loadSession(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`--resume: no session ${opts.resumeId} in this workspace (${file})`, { cause: error });
      throw error;
    }
  }
  if (opts.continueLatest) {
    if (located) return { file: located, loaded: await loadSession(located) };
    return { note: 'No earlier session in this workspace to continue; starting a new one.' };
  }
  return {};
}

/** No single match: matchSession's own words for why (none, or which ones). */
async function matchOrExplain(cairnHome: string, cwd: string, idOrPrefix: string): Promise<string> {
  const match = matchSession(await listSessions(cairnHome, cwd), idOrPrefix);
  if (!('session' in match)) throw new Error(`--resume: ${match.message} (${projectDir(cairnHome, cwd)})`);
  return match.session.file;
}
