import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isInside, realpathLongestPrefix } from '../permissions/paths.js';
import { protectedReason } from '../permissions/protected-paths.js';
import { errorMessage } from '../util/error-message.js';
import type { RewindChange } from './checkpoints.js';

export interface RestoreOutcome {
  path: string;
  ok: boolean;
  /** What was done, or why the file was left alone. */
  message: string;
}

interface Bases {
  workspace: string;
  home: string;
}

/** Why a recorded path's folder may not be written in now: it must still be itself, not a symlink leading elsewhere. */
async function folderRefusal(abs: string): Promise<string | undefined> {
  const folder = path.dirname(abs);
  let real: string;
  try {
    real = await realpathLongestPrefix(folder);
  } catch (err) {
    return `cannot resolve: ${errorMessage(err)}`;
  }
  return real === folder ? undefined : `moved: its folder now resolves to ${real}`;
}

/**
 * Why a recorded path may not be touched now, or undefined when it is safe. Checkpoint records sit
 * in a file the sandboxed model may be able to write, so a record is trusted for nothing: the path
 * must be inside the workspace, not a protected path (git hooks and config, cairn's and Claude's
 * settings, MCP servers...: what the permission layer asks about), and reached through folders that
 * are still themselves. A symlink or hard link at the path itself is fine: it is replaced, never written through.
 */
async function refusal(bases: Bases, abs: string): Promise<string | undefined> {
  if (!path.isAbsolute(abs) || path.resolve(abs) !== abs || !isInside(bases.workspace, abs) || abs === bases.workspace) return 'outside the workspace';
  const guarded = protectedReason(abs, bases);
  if (guarded !== undefined) return `protected path (${guarded}); restore it by hand if you mean to`;
  const moved = await folderRefusal(abs);
  if (moved !== undefined) return moved;
  try {
    const stat = await fs.lstat(abs);
    if (!stat.isFile() && !stat.isSymbolicLink()) return 'it is no longer a regular file';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return errorMessage(err);
  }
  return undefined;
}

/** The mode of the file being replaced when it is a plain file of its own (not a link); undefined for a new file. */
async function modeOf(abs: string): Promise<number | undefined> {
  try {
    const stat = await fs.lstat(abs);
    if (stat.isFile() && stat.nlink === 1) return stat.mode & 0o777;
  } catch {
    // Absent: a new file, created as any other (0644 less the umask).
  }
  return undefined;
}

/**
 * Replaces the directory entry rather than writing into whatever it names: the content goes to a new
 * file beside it (created exclusively, so nothing planted at that name is followed), which is then
 * renamed over the path. A hard link planted at the path keeps the other file's content; a symlink
 * is replaced by the file.
 */
async function replaceEntry(abs: string, content: Buffer): Promise<void> {
  const mode = await modeOf(abs);
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.cairn-restore-${randomBytes(6).toString('hex')}`);
  const handle = await fs.open(tmp, 'wx', mode ?? 0o644);
  try {
    try {
      await handle.writeFile(content);
      if (mode !== undefined) await handle.chmod(mode); // the file keeps its own mode, whatever the umask
    } finally {
      await handle.close();
    }
    // The folder is checked again just before the rename: it must not have become a link meanwhile.
    const moved = await folderRefusal(abs);
    if (moved !== undefined) throw new Error(moved);
    await fs.rename(tmp, abs);
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined); // the error below is what matters
    throw err;
  }
}

/**
 * Writes back each recorded file's earlier content (or deletes files the tools created), in the
 * order given (newest change first). Only the recorded paths are touched; a path outside the
 * workspace, a protected one, or one whose folder moved since is refused and reported, never followed.
 */
export async function restoreCode(cwd: string, changes: readonly RewindChange[], opts: { home?: string } = {}): Promise<RestoreOutcome[]> {
  const bases: Bases = { workspace: await realpathLongestPrefix(cwd), home: await realpathLongestPrefix(opts.home ?? homedir()) };
  const outcomes: RestoreOutcome[] = [];
  for (const change of changes) {
    const why = await refusal(bases, change.path);
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
        await replaceEntry(change.path, change.content);
        outcomes.push({ path: change.path, ok: true, message: 'restored' });
      }
    } catch (err) {
      outcomes.push({ path: change.path, ok: false, message: `not restored: ${errorMessage(err)}` });
    }
  }
  return outcomes;
}
