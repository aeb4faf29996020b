import { CheckpointRecorder } from '../session/checkpoint-tools.js';
import { checkpointFile, CheckpointStore } from '../session/checkpoints.js';
import { sessionFile } from '../session/session-paths.js';

/**
 * The session's checkpoints (for rewind), beside its session file under $CAIRN_HOME: a resumed
 * session's are read back. None when the session is not saved (nothing to rewind after a restart,
 * and nowhere outside the repository to keep them).
 */
export async function setUpCheckpoints(opts: {
  cairnHome: string;
  cwd: string;
  sessionId: string;
  resumeFile?: string;
  persist: boolean;
  onProblem: (message: string) => void;
}): Promise<CheckpointRecorder | undefined> {
  if (!opts.persist) return undefined;
  const file = checkpointFile(opts.resumeFile ?? sessionFile(opts.cairnHome, opts.cwd, opts.sessionId));
  return new CheckpointRecorder(await CheckpointStore.load(file, opts.onProblem), opts.onProblem);
}
