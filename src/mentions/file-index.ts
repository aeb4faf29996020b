import path from 'node:path';
import { GitignoreFilter } from '../tools/gitignore.js';
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
  const out: string[] = [];
  for await (const abs of walkFiles(root, { gitignore: new GitignoreFilter(root), skipNodeModules: true, signal })) {
    out.push(path.relative(root, abs).split(path.sep).join('/'));
    if (out.length > FILE_INDEX_LIMIT) break;
  }
  return out;
}

function dirsOf(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const f of files) {
    for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) dirs.add(f.slice(0, i + 1));
  }
  return [...dirs].sort();
}
