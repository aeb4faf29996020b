import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { ruleRoot } from '../bash/command-reads.js';
import { matchPathSpecifier } from './match.js';
import type { PathBases } from './match.js';

// Read deny rules as places on disk, so the OS sandbox can hide them from every program (`base64 .env`,
// `python3 -c 'open(...)'`, `ln -s .env x && cat x`), not only from the ones the analysis knows.
// A pattern with wildcards is looked for below the folder it starts from (the workspace for `**/x`);
// the walk is bounded, and skips dependency and git folders, which no rule means to match into.

/** Directories visited at most per walk: a monorepo of 50,000 files has ~5,000. */
export const MAX_DIRS = 20_000;
const SKIP = new Set(['node_modules', '.git']);
const WILDCARD = /[*?[{]/;

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Every existing path below `root` the specifier matches (a matching folder is hidden whole, not entered). */
async function walkMatches(specifier: string, root: string, b: PathBases, found: Set<string>): Promise<void> {
  const queue = [root];
  let dirs = 0;
  while (queue.length > 0 && dirs < MAX_DIRS) {
    const dir = queue.shift() as string;
    dirs += 1;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable: nothing in it can be read through the sandbox either
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (matchPathSpecifier(specifier, p, b)) found.add(p);
      else if (e.isDirectory() && !SKIP.has(e.name)) queue.push(p);
    }
  }
}

/** The places the Read deny specifiers cover now, and their real paths when reached through links. */
export async function readDenyPlaces(specifiers: readonly string[], b: PathBases): Promise<string[]> {
  const found = new Set<string>();
  for (const specifier of specifiers) {
    const root = ruleRoot(specifier, b);
    const literal = root !== undefined && !WILDCARD.test(specifier);
    if (literal) {
      if (await exists(root)) found.add(root);
      continue;
    }
    const start = root ?? b.workspace;
    if (matchPathSpecifier(specifier, start, b)) found.add(start);
    else await walkMatches(specifier, start, b, found);
  }
  const real = await Promise.all([...found].map((p) => realpath(p).catch(() => p)));
  return [...new Set([...found, ...real])];
}
