// The path a WorktreeCreate hook printed is untrusted input (an http hook's answer comes from a
// server; a script may print a stray line last): the folder a session or a subagent then works in,
// where writes need no approval in acceptEdits and the sandbox lets commands write. So it must be
// an absolute path to an existing directory that is a worktree of its own: not the filesystem root,
// not the home folder or a folder holding it, not the workspace or a folder holding it, and, when
// git knows the folder, the top level of a git working tree (not a subfolder of one, not a `.git`).
// A folder no git repository holds passes: a hook may use another version control.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { safeGit } from '../util/safe-git.js';

/** `inner` is `outer` or inside it. */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

async function realOrSame(p: string): Promise<string> {
  return fs.realpath(p).catch(() => path.resolve(p));
}

/** What git says of a folder: not in a repository, inside a `.git`, or in the working tree whose top is given. */
async function gitPlace(dir: string): Promise<{ kind: 'none' } | { kind: 'git-dir' } | { kind: 'tree'; top: string }> {
  const inGitDir = await safeGit('rev-parse', ['--is-inside-git-dir'], { cwd: dir }).then((out) => out.trim(), () => undefined);
  if (inGitDir === undefined) return { kind: 'none' };
  if (inGitDir === 'true') return { kind: 'git-dir' };
  const top = await safeGit('rev-parse', ['--show-toplevel'], { cwd: dir }).then((out) => out.trim(), () => undefined);
  return top === undefined || top === '' ? { kind: 'git-dir' } : { kind: 'tree', top: await realOrSame(top) };
}

/**
 * Checks what a WorktreeCreate hook printed: the directory's real path, or why it is refused (one
 * sentence starting with `where`, naming the path).
 */
export async function checkHookWorktreePath(printed: string, where: string, workspace: string, homeDir = os.homedir()): Promise<{ dir: string } | { error: string }> {
  if (!path.isAbsolute(printed)) return { error: `${where} printed ${JSON.stringify(printed)}, which is not an absolute path` };
  let dir: string;
  try {
    const stat = await fs.stat(printed);
    if (!stat.isDirectory()) return { error: `${where} printed ${printed}, which is not a directory` };
    dir = await fs.realpath(printed);
  } catch (error) {
    return { error: `${where} printed ${printed}, which does not exist (${errorMessage(error)})` };
  }
  const refuse = (why: string) => ({ error: `${where} printed ${printed}, ${why}; a worktree must be a folder of its own` });
  if (dir === path.parse(dir).root) return refuse('which is the filesystem root');
  const home = await realOrSame(homeDir);
  if (within(home, dir)) return refuse(dir === home ? 'which is your home folder' : `which holds your home folder ${home}`);
  const ws = await realOrSame(workspace);
  if (within(ws, dir)) return refuse(dir === ws ? 'which is the workspace itself' : `which holds the workspace ${ws}`);
  const place = await gitPlace(dir);
  if (place.kind === 'git-dir') return refuse('which is inside a git repository\'s .git folder, not a working tree');
  if (place.kind === 'tree' && place.top !== dir) return refuse(`which is a folder inside the working tree ${place.top}, not the top of a worktree`);
  return { dir };
}
