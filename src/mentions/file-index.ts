import path from 'node:path';
import { GitignoreFilter } from '../tools/gitignore.js';
import { ripgrepFiles } from '../tools/ripgrep-files.js';
import { ripgrepPath } from '../tools/ripgrep-path.js';
import { compareWalkOrder, ignoredAbove } from '../tools/ripgrep-walk.js';
import { walkFiles } from '../tools/walk.js';
import { safeGit } from '../util/safe-git.js';

/** Files the `@` completion offers: at most this many (a bigger tree is cut, and says so). */
export const FILE_INDEX_LIMIT = 500_000;

export interface FileIndex {
  /** Workspace-relative paths with `/`, files only. */
  readonly files: readonly string[];
  /** Folders that hold them (`src/`, `src/app/`), for `@dir/`. */
  readonly dirs: readonly string[];
  readonly source: 'git' | 'walk';
  readonly truncated: boolean;
}

/**
 * The workspace's files as git sees them: tracked plus untracked-not-ignored (`git ls-files -co
 * --exclude-standard`), one process however big the repository. Outside a git repository: a walk
 * that honours .gitignore files and skips node_modules.
 */
export async function buildFileIndex(root: string, signal: AbortSignal = new AbortController().signal): Promise<FileIndex> {
  const fromGit = await gitFiles(root, signal);
  const files = fromGit ?? (await walked(root, signal));
  const truncated = files.length > FILE_INDEX_LIMIT;
  const kept = truncated ? files.slice(0, FILE_INDEX_LIMIT) : files;
  return { files: kept, dirs: dirsOf(kept), source: fromGit ? 'git' : 'walk', truncated };
}

async function gitFiles(root: string, signal: AbortSignal): Promise<string[] | undefined> {
  try {
    const stdout = await safeGit('ls-files', ['-co', '--exclude-standard', '-z'], { cwd: root, signal, maxBuffer: 256 * 1024 * 1024 });
    return stdout.split('\0').filter((f) => f !== '');
  } catch {
    return undefined; // not a repository, no git, or one git will not read (safe-git.ts): the walk below
  }
}

async function walked(root: string, signal: AbortSignal): Promise<string[]> {
  return (await ripgrepWalked(root, signal)) ?? (await jsWalked(root, signal));
}

/**
 * The same walk on `rg --files` (sorted, so the cut at the limit falls where the JavaScript walk's does), with the
 * symlinks ripgrep passes over put back in their places as that walk lists them.
 */
async function ripgrepWalked(root: string, signal: AbortSignal): Promise<string[] | undefined> {
  const bin = await ripgrepPath();
  if (bin === undefined) return undefined;
  let count = 0;
  const walk = { useIgnore: true, skipNodeModules: true, sorted: true, symlinks: true };
  const listed = await ripgrepFiles(bin, root, walk, signal, () => (++count > FILE_INDEX_LIMIT ? 'stop' : 'keep'));
  if (!listed) return undefined;
  const above = await ignoredAbove(new GitignoreFilter(root), root, root);
  const last = listed.files.length > FILE_INDEX_LIMIT ? listed.files[listed.files.length - 1] : undefined;
  // The walk lists a symlink where it finds it; only those before the cut count.
  const links = listed.symlinks.filter((rel) => last === undefined || compareWalkOrder(rel, last) < 0);
  let files = links.length === 0 ? listed.files : [...listed.files, ...links].sort(compareWalkOrder);
  if (above) {
    const kept: string[] = [];
    for (const rel of files) if (!(await above(path.join(root, rel)))) kept.push(rel);
    files = kept;
  }
  return files;
}

async function jsWalked(root: string, signal: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  for await (const abs of walkFiles(root, { gitignore: new GitignoreFilter(root), skipNodeModules: true, signal })) {
    out.push(path.relative(root, abs).split(path.sep).join('/'));
    if (out.length > FILE_INDEX_LIMIT) break;
  }
  return out;
}

/**
 * Every folder that holds a file, with its parents. A folder in the set has its parents there too, so each file
 * costs one lookup when its folder is known (most files share one with the file before), not one per level.
 */
export function dirsOf(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  let previous = '';
  for (const f of files) {
    const slash = f.lastIndexOf('/');
    if (slash === -1) continue;
    const dir = f.slice(0, slash + 1);
    if (dir === previous) continue;
    previous = dir;
    for (let end = slash; end !== -1 && !dirs.has(f.slice(0, end + 1)); end = f.lastIndexOf('/', end - 1)) dirs.add(f.slice(0, end + 1));
  }
  return [...dirs].sort();
}
