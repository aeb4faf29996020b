import path from 'node:path';
import type { GitignoreFilter } from './gitignore.js';
import type { GlobMatcher } from './glob-match.js';
import { ripgrepFiles } from './ripgrep-files.js';
import { ripgrepPath } from './ripgrep-path.js';
import { globDepth, globHint, ignoredAbove } from './ripgrep-walk.js';

export interface GlobWalk {
  readonly base: string;
  /** The pattern relative to base, and its compiled matcher (which decides; ripgrep's glob only narrows the walk). */
  readonly pattern: string;
  readonly matcher: GlobMatcher;
  readonly filter: GitignoreFilter;
  readonly useIgnore: boolean;
  readonly cwd: string;
  readonly signal: AbortSignal;
}

/**
 * The glob tool's walk on `rg --files`: the same files globFiles (walk.ts) finds, absolute, in no order; undefined
 * when there is no ripgrep or it failed (the caller walks in JavaScript). Like globFiles it skips .git, lists no
 * symlinks and honours .gitignore files when asked.
 */
export async function globWithRipgrep(walk: GlobWalk): Promise<string[] | undefined> {
  const bin = await ripgrepPath();
  if (bin === undefined) return undefined;
  const options = {
    useIgnore: walk.useIgnore,
    skipNodeModules: false,
    globHint: globHint(walk.pattern),
    maxDepth: globDepth(walk.pattern),
    sorted: false,
    symlinks: false,
  };
  const listed = await ripgrepFiles(bin, walk.base, options, walk.signal, (rel) => (walk.matcher.match(rel) ? 'keep' : 'skip'));
  if (!listed) return undefined;
  // ripgrep's names are already normalized (no `.` or `..`, `/`-separated): joined by hand, not path.join per file.
  const prefix = walk.base.endsWith(path.sep) ? walk.base : walk.base + path.sep;
  const files = listed.files.map((rel) => prefix + (path.sep === '/' ? rel : rel.replaceAll('/', path.sep)));
  const above = walk.useIgnore ? await ignoredAbove(walk.filter, walk.cwd, walk.base) : undefined;
  if (!above) return files;
  const kept: string[] = [];
  for (const file of files) if (!(await above(file))) kept.push(file);
  return kept;
}
