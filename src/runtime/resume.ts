import { listSessions, matchSession } from '../session/session-list.js';
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
    const match = matchSession(await listSessions(opts.cairnHome, opts.cwd), opts.resumeId);
    if (!('session' in match)) throw new Error(`--resume: ${match.message} (${projectDir(opts.cairnHome, opts.cwd)})`);
    const file = match.session.file;
    try {
      return { file, loaded: await loadSession(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`--resume: no session ${opts.resumeId} in this workspace (${file})`, { cause: error });
      throw error;
    }
  }
  if (opts.continueLatest) {
    const latest = (await listSessions(opts.cairnHome, opts.cwd))[0];
    if (latest) return { file: latest.file, loaded: await loadSession(latest.file) };
    return { note: 'No earlier session in this workspace to continue; starting a new one.' };
  }
  return {};
}
