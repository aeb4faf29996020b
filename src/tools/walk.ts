import fs from 'node:fs/promises';
import path from 'node:path';
import type { GitignoreFilter } from './gitignore.js';
import type { GlobMatcher, GlobStates } from './glob-match.js';

export interface WalkOptions {
  /** Filters ignored paths when set. */
  readonly gitignore?: GitignoreFilter;
  readonly skipNodeModules: boolean;
  readonly signal: AbortSignal;
}

/** Yields every file under root in sorted order. Symlinked directories are not followed, so cycles cannot happen. */
export async function* walkFiles(root: string, opts: WalkOptions): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fs.readdir(root, { withFileTypes: true });
  } catch {
    return; // An unreadable subdirectory is skipped rather than failing the whole search.
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (opts.signal.aborted) return;
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === '.git') continue;
      if (opts.skipNodeModules && entry.name === 'node_modules') continue;
      if (opts.gitignore && (await opts.gitignore.isIgnored(full, true))) continue;
      yield* walkFiles(full, opts);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      if (opts.gitignore && (await opts.gitignore.isIgnored(full, false))) continue;
      yield full;
    }
  }
}

export interface GlobWalkOptions {
  /** Prunes ignored directories and drops ignored files when set. */
  readonly gitignore?: GitignoreFilter;
  readonly signal: AbortSignal;
}

/**
 * The files under root whose path relative to root the matcher accepts. The matcher's state is carried down
 * the tree, so a directory no match can pass through is never read (`src/*.ts` reads only src), and each name
 * costs its length, whatever the pattern. Directories are read in parallel (one at a time spent most of the
 * time waiting). Like the crawl it replaces, it skips .git and does not list or follow symlinks.
 */
export async function globFiles(root: string, matcher: GlobMatcher, opts: GlobWalkOptions): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string, states: GlobStates): Promise<void> => {
    if (opts.signal.aborted) return;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable directory is skipped, not fatal
    }
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const after = matcher.advance(states, entry.name);
      if (entry.isFile()) {
        if (matcher.accepts(after) && !(opts.gitignore && (await opts.gitignore.isIgnored(full, false)))) found.push(full);
      } else if (entry.isDirectory() && entry.name !== '.git') {
        const inside = matcher.advance(after, '/');
        if (!matcher.alive(inside) || (opts.gitignore && (await opts.gitignore.isIgnored(full, true)))) continue;
        below.push(visit(full, inside));
      }
    }
    await Promise.all(below);
  };
  await visit(root, matcher.initial());
  return found;
}
