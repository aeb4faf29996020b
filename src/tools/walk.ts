import fs from 'node:fs/promises';
import path from 'node:path';
import type { GitignoreFilter } from './gitignore.js';

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
