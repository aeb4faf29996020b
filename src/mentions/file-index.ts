import { execFile } from 'node:child_process';
import path from 'node:path';
import { GitignoreFilter } from '../tools/gitignore.js';
import { walkFiles } from '../tools/walk.js';

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

function gitFiles(root: string, signal: AbortSignal): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, signal, maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => {
      // Not a repository, or no git: the walk below.
      if (error) return resolve(undefined);
      resolve(stdout.split('\0').filter((f) => f !== ''));
    });
  });
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
