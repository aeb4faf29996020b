import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isInside, realpathLongestPrefix } from '../permissions/paths.js';
import { errorMessage } from '../util/error-message.js';
import type { RewindChange } from './checkpoints.js';

export interface RestoreOutcome {
  path: string;
  ok: boolean;
  /** What was done, or why the file was left alone. */
  message: string;
}

/**
 * Why a recorded path may not be touched now, or undefined when it is safe: it must be inside the
 * workspace, resolve to itself (no symlink planted since on the way) and not be a symlink itself.
 */
async function refusal(cwd: string, abs: string): Promise<string | undefined> {
  if (!isInside(cwd, abs)) return 'outside the workspace';
  let real: string;
  try {
    real = await realpathLongestPrefix(abs);
  } catch (err) {
    return `cannot resolve: ${errorMessage(err)}`;
  }
  if (real !== abs) return `moved: it now resolves to ${real}`;
  try {
    const stat = await fs.lstat(abs);
    if (stat.isSymbolicLink()) return 'it is now a symbolic link';
    if (!stat.isFile()) return 'it is no longer a regular file';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return errorMessage(err);
  }
  return undefined;
}

async function writeNoFollow(abs: string, content: string): Promise<void> {
  const handle = await fs.open(abs, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Writes back each recorded file's earlier content (or deletes files the tools created), in the
 * order given (newest change first). Only the recorded paths are touched; a path that moved or
 * became a link since is refused and reported, never followed.
 */
export async function restoreCode(cwd: string, changes: readonly RewindChange[]): Promise<RestoreOutcome[]> {
  const outcomes: RestoreOutcome[] = [];
  for (const change of changes) {
    const why = await refusal(cwd, change.path);
    if (why) {
      outcomes.push({ path: change.path, ok: false, message: `not restored: ${why}` });
      continue;
    }
    try {
      if (change.content === null) {
        await fs.rm(change.path, { force: true });
        outcomes.push({ path: change.path, ok: true, message: 'deleted (created after that prompt)' });
      } else {
        await fs.mkdir(path.dirname(change.path), { recursive: true });
        await writeNoFollow(change.path, change.content);
        outcomes.push({ path: change.path, ok: true, message: 'restored' });
      }
    } catch (err) {
      outcomes.push({ path: change.path, ok: false, message: `not restored: ${errorMessage(err)}` });
    }
  }
  return outcomes;
}
