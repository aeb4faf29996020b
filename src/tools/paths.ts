import os from 'node:os';
import path from 'node:path';

/** Resolves a tool's path argument: `~` is the home directory, relative paths are against the workspace. */
export function resolveInWorkspace(cwd: string, p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/')) return path.join(os.homedir(), p.slice(2));
  return path.resolve(cwd, p);
}

export function isInside(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** How a path is shown in results: relative inside the workspace (shorter, and what the model passed), absolute outside. */
export function displayPath(cwd: string, abs: string): string {
  if (!isInside(cwd, abs)) return abs;
  const rel = path.relative(cwd, abs);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}
