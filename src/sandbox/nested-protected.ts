import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { PROTECTED_DIRS, PROTECTED_FILES, PROTECTED_IN_GIT } from '../permissions/protected-paths.js';

// The protected places the policy names are at the root of each writable folder; the permission
// checker protects them at any depth. This finds the ones that exist in subfolders (a vendored clone's
// .git/config and hooks, packages/app/.vscode, svc/.envrc) when a command is wrapped, so the sandbox
// keeps them read-only as well. A name that does not exist yet in a subfolder is not guarded (the
// placeholders are for the root only): the README and architecture.md say so.

/** How many folders below a root are looked at, and how many folders at most (a huge tree is cut short, not walked whole). */
export const NESTED_SCAN = { depth: 3, folders: 2000 } as const;
/** Folders nothing reads protected names from, and that can be huge. */
const SKIPPED = new Set(['node_modules', '.venv', 'venv', '__pycache__']);
const DIRS = new Set(PROTECTED_DIRS.map((d) => d.toLowerCase()));
const FILES = new Set(PROTECTED_FILES.map((f) => f.toLowerCase()));

export interface NestedPlaces {
  /** Protected places that exist below the root (not at it), absolute. */
  readOnly: string[];
  /** The nested repositories' `.git` folders, where an absent `commondir` is swept after the command. */
  gitDirs: string[];
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // unreadable or gone: nothing to guard there
  }
}

/** Protected names below `root`, breadth first, within NESTED_SCAN. Links are not followed. */
export function nestedProtectedPlaces(root: string, limits: { depth: number; folders: number } = NESTED_SCAN): NestedPlaces {
  const found: NestedPlaces = { readOnly: [], gitDirs: [] };
  let queue: string[] = [root];
  let seen = 0;
  for (let depth = 0; depth <= limits.depth && queue.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of queue) {
      if (++seen > limits.folders) return found;
      for (const e of entries(dir)) {
        const name = e.name.toLowerCase();
        const p = path.join(dir, e.name);
        if (depth === 0 && name === '.git' && !e.isDirectory()) {
          // The root's own `.git` file (a worktree's gitdir: pointer): rewritten, it would send the
          // user's next git command to a repository the command made, hooks and config included.
          found.readOnly.push(p);
        } else if (depth > 0 && name === '.git') {
          // A repository's folder stays writable (git writes its index and objects) but for the parts
          // that decide what git runs; a `.git` file (gitdir: pointer) is read-only whole.
          if (e.isDirectory()) {
            found.gitDirs.push(p);
            found.readOnly.push(...PROTECTED_IN_GIT.map((g) => path.join(p, g.name)));
          } else {
            found.readOnly.push(p);
          }
        } else if (depth > 0 && (DIRS.has(name) || FILES.has(name))) {
          found.readOnly.push(p);
        } else if (e.isDirectory() && !DIRS.has(name) && !SKIPPED.has(e.name)) {
          next.push(p);
        }
      }
    }
    queue = next;
  }
  return found;
}
