import path from 'node:path';
import { CheckpointRecorder } from '../session/checkpoint-tools.js';
import { checkpointFile, CheckpointStore } from '../session/checkpoints.js';
import { sessionFile } from '../session/session-paths.js';
import { SessionSnapshots } from '../session/workspace-snapshots.js';

/**
 * The session's checkpoints (for rewind), beside its session file under $CAIRN_HOME: a resumed
 * session's are read back. None when the session is not saved (nothing to rewind after a restart,
 * and nowhere outside the repository to keep them). With them, the workspace snapshots that let
 * rewind cover bash commands, in the session's folder (cairn's home never snapshotted); the caller
 * prunes them when the session ends.
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
  const snapshots = new SessionSnapshots(path.join(path.dirname(file), 'snapshots'), [opts.cairnHome]);
  snapshots.warmUp(opts.cwd);
  return new CheckpointRecorder(await CheckpointStore.load(file, opts.onProblem), opts.onProblem, snapshots);
}
