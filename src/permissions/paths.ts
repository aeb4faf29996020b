import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path a tool call touches, both as written (lexically resolved) and through symlinks. */
export interface ResolvedPath {
  given: string;
  lexical: string;
  real: string;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Resolves symlinks on the longest prefix that exists and appends the rest: a file about to be
 * created under a symlinked directory is judged where it will really land.
 */
export async function realpathLongestPrefix(path: string): Promise<string> {
  const tail: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return tail.length === 0 ? real : join(real, ...tail.reverse());
    } catch (err) {
      if (!isMissing(err)) throw err;
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      tail.push(basename(current));
      current = parent;
    }
  }
}

/** Joins without normalizing, so `link/../x` is resolved by the filesystem (through the link), not lexically. */
function absoluteUnnormalized(given: string, workspace: string, home: string): string {
  if (given === '~') return home;
  if (given.startsWith('~/')) return `${home}/${given.slice(2)}`;
  return isAbsolute(given) ? given : `${workspace}/${given}`;
}

export async function resolveToolPath(given: string, workspace: string, home: string): Promise<ResolvedPath> {
  const abs = absoluteUnnormalized(given, workspace, home);
  return { given, lexical: resolve(abs), real: await realpathLongestPrefix(abs) };
}

export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
