import { lstat, readlink, realpath } from 'node:fs/promises';
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

// As the kernel does (ELOOP after 40 links): a loop of dangling links must not spin.
const MAX_LINKS = 40;

async function danglingTarget(path: string): Promise<string | undefined> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return undefined;
    const target = await readlink(path);
    return isAbsolute(target) ? target : `${dirname(path)}/${target}`;
  } catch {
    return undefined;
  }
}

/**
 * Resolves symlinks on the longest prefix that exists and appends the rest: a file about to be
 * created under a symlinked directory is judged where it will really land. A dangling link is
 * followed to where a write through it would create its target.
 */
export async function realpathLongestPrefix(path: string, links = 0): Promise<string> {
  const tail: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return tail.length === 0 ? real : join(real, ...tail.reverse());
    } catch (err) {
      if (!isMissing(err) && (err as NodeJS.ErrnoException).code !== 'ELOOP') throw err;
      const target = await danglingTarget(current);
      if (target !== undefined) {
        if (links >= MAX_LINKS) throw new Error(`too many levels of symbolic links: ${path}`, { cause: err });
        const rest = tail.length === 0 ? target : `${target}/${[...tail].reverse().join('/')}`;
        return realpathLongestPrefix(rest, links + 1);
      }
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

/** Whether `path` is `root` or lies under it (both absolute and already resolved as wanted). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
