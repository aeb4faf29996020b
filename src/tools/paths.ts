import os from 'node:os';
import path from 'node:path';
import { isInside, realpathLongestPrefix } from '../permissions/paths.js';

/** Resolves a tool's path argument: `~` is the home directory, relative paths are against the workspace. */
export function resolveInWorkspace(cwd: string, p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/')) return path.join(os.homedir(), p.slice(2));
  return path.resolve(cwd, p);
}

/**
 * Where a write to this path really lands, resolved the way the permission check resolved it:
 * through symlinks (dangling ones too), `..` after a link taken from the link's target. Writing
 * this path, not a lexically normalized one, means the file checked is the file written.
 */
export function resolveForWrite(cwd: string, p: string): Promise<string> {
  let abs: string;
  if (p === '~') abs = os.homedir();
  else if (p.startsWith('~/')) abs = `${os.homedir()}/${p.slice(2)}`;
  else abs = path.isAbsolute(p) ? p : `${cwd}/${p}`;
  return realpathLongestPrefix(abs);
}

export { isInside };

/** How a path is shown in results: relative inside the workspace (shorter, and what the model passed), absolute outside. */
export function displayPath(cwd: string, abs: string): string {
  if (!isInside(cwd, abs)) return abs;
  const rel = path.relative(cwd, abs);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}
