import { createHash } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { safeGit, safeGitBytes, type SafeGitOptions } from '../util/safe-git.js';

/**
 * Snapshots of a workspace's files as git trees, so rewind can undo what a bash command changed
 * (issue 38 item 4). The trees live in a private bare repository in the session's folder, with its
 * own index: the user's index, stash, refs and objects are never written (the user's object store is
 * only read, as an alternate, so unchanged tracked files are not copied). In a git workspace the
 * snapshot covers tracked and untracked files that are not ignored; outside git, every file under
 * the workspace. Every git call goes through safe-git: the repository's fsmonitor, hooks and filters
 * never run, and the store's own attributes switch off line-ending and encoding conversion, so a
 * snapshot holds each file's exact bytes.
 */

/** A file a command changed: its content before (null: the command created it). */
export interface FileBefore {
  path: string;
  before: Buffer | null;
}

/** A change rewind cannot restore from a snapshot, and why. */
export interface SkippedChange {
  path: string;
  reason: string;
}

export interface SnapshotChanges {
  files: FileBefore[];
  skipped: SkippedChange[];
}

/** Larger earlier contents are not kept (the checkpoint file holds them inline). */
export const MAX_KEPT_BYTES = 16 * 1024 * 1024;
/** Outside git nothing is ignored: a larger folder (a home directory, say) is not snapshotted. */
export const MAX_FILES_OUTSIDE_GIT = 20_000;
/** The first snapshot hashes every file; later ones only what changed. */
const FIRST_TIMEOUT_MS = 30_000;
const LATER_TIMEOUT_MS = 15_000;

/** Every call: no conversion on the way in, no auto-gc, fast (lightly compressed) loose objects. */
const STORE_CONFIG = ['core.autocrlf=false', 'core.safecrlf=false', 'core.bare=false', 'gc.auto=0', 'core.looseCompression=1', 'core.untrackedCache=false', 'core.quotePath=false'];
/** $GIT_DIR/info/attributes outranks every .gitattributes: no filter, eol, ident or encoding change of the bytes. */
const STORE_ATTRIBUTES = '* -text -filter -ident -working-tree-encoding -eol\n';

interface Layout {
  gitDir: string;
  /** The folder the trees' paths are relative to: the repository's top level, or the workspace outside git. */
  workTree: string;
  indexFile: string;
  workspace: string;
}

export class WorkspaceSnapshots {
  private layout: Promise<Layout> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private taken = 0;
  private lastTree: string | undefined;

  /**
   * `storeDir`: this workspace's private store, created on first use. `leaveOut`: folders never
   * snapshotted (cairn's own session folder, when it sits inside the workspace).
   */
  constructor(readonly storeDir: string, readonly workspace: string, private readonly leaveOut: readonly string[] = []) {}

  /** Records the workspace's files as they are now; resolves the tree's id. Rejects with a message naming the cause. */
  snapshot(): Promise<string> {
    return this.serial(async () => {
      const layout = await this.ready();
      const first = this.taken === 0;
      const opts = this.gitOptions(layout, first ? FIRST_TIMEOUT_MS : LATER_TIMEOUT_MS);
      await safeGit('add', ['-A', '--ignore-errors', '--', '.'], { ...opts, cwd: layout.workspace }).catch((error: unknown) => {
        // --ignore-errors: an unreadable file is reported on stderr and left out, the rest is recorded.
        if ((error as { code?: unknown }).code !== 1) throw error;
      });
      const tree = (await safeGit('write-tree', [], opts)).trim();
      if (tree !== this.lastTree) await this.setNestedRepositoriesAside(opts);
      this.lastTree = tree;
      this.taken++;
      return tree;
    });
  }

  /** The files that differ between two snapshots, each with its content in `before`. */
  changes(before: string, after: string): Promise<SnapshotChanges> {
    return this.serial(async () => {
      const layout = await this.ready();
      const opts = this.gitOptions(layout, LATER_TIMEOUT_MS);
      if (before === after) return { files: [], skipped: [] };
      const raw = await safeGit('diff-tree', ['-r', '-z', '--no-renames', '--raw', before, after], { ...opts, maxBuffer: 64 << 20 });
      const skipped: SkippedChange[] = [];
      const wanted: Array<{ path: string; blob: string | null }> = [];
      const fields = raw.split('\0');
      for (let i = 0; i + 1 < fields.length; i += 2) {
        const [oldMode = '', newMode = '', oldBlob = ''] = (fields[i] ?? '').replace(/^:/, '').split(' ');
        const abs = path.join(layout.workTree, fields[i + 1] ?? '');
        if (oldMode === '000000') {
          if (newMode !== '160000') wanted.push({ path: abs, blob: null });
        } else if (oldMode === '120000') skipped.push({ path: abs, reason: 'it was a symbolic link' });
        else if (oldMode === '160000') skipped.push({ path: abs, reason: 'it is a nested repository' });
        else wanted.push({ path: abs, blob: oldBlob });
      }
      const contents = await this.blobs(opts, wanted.flatMap((w) => (w.blob ? [w.blob] : [])), skipped, wanted);
      const files = wanted.flatMap((w): FileBefore[] => {
        if (w.blob === null) return [{ path: w.path, before: null }];
        const content = contents.get(w.blob);
        return content ? [{ path: w.path, before: content }] : [];
      });
      return { files, skipped };
    });
  }

  /**
   * A nested repository (a submodule, a clone inside the workspace) is recorded by its commit, and
   * `git add` would next check whether it is dirty by running `git status` inside it, under its own
   * config, whose filters cairn has not switched off. Marked skip-worktree, it is never looked at again.
   */
  private async setNestedRepositoriesAside(opts: SafeGitOptions): Promise<void> {
    const staged = await safeGit('ls-files', ['--stage', '-t', '-z'], { ...opts, maxBuffer: 256 << 20 });
    // -t -s: "<tag> <mode> <id> <stage>\t<path>"; tag H is a tracked entry not yet set aside.
    const nested = staged.split('\0').filter((e) => e.startsWith('H 160000 ')).map((e) => e.slice(e.indexOf('\t') + 1));
    if (nested.length > 0) await safeGit('update-index', ['--skip-worktree', '-z', '--stdin'], { ...opts, input: nested.join('\0') + '\0' });
  }

  /** Deletes the store (its trees are a cache: the checkpoints keep what rewind needs). */
  async prune(): Promise<void> {
    await this.queue.catch(() => undefined);
    await fs.rm(this.storeDir, { recursive: true, force: true });
    this.layout = undefined;
    this.taken = 0;
    this.lastTree = undefined;
  }

  /** Reads blobs in one `cat-file --batch`; larger than MAX_KEPT_BYTES are skipped and reported. */
  private async blobs(opts: SafeGitOptions, ids: string[], skipped: SkippedChange[], wanted: ReadonlyArray<{ path: string; blob: string | null }>): Promise<Map<string, Buffer>> {
    const result = new Map<string, Buffer>();
    if (ids.length === 0) return result;
    const sizes = await safeGit('cat-file', ['--batch-check'], { ...opts, input: ids.join('\n') + '\n', maxBuffer: 64 << 20 });
    const small: string[] = [];
    let total = 0;
    for (const line of sizes.split('\n')) {
      const [id = '', , size = '0'] = line.split(' ');
      if (id === '') continue;
      if (Number(size) > MAX_KEPT_BYTES) {
        for (const w of wanted) if (w.blob === id) skipped.push({ path: w.path, reason: `larger than ${MAX_KEPT_BYTES / 1024 / 1024} MB` });
      } else {
        small.push(id);
        total += Number(size) + 64;
      }
    }
    if (small.length === 0) return result;
    const out = await safeGitBytes('cat-file', ['--batch'], { ...opts, input: small.join('\n') + '\n', maxBuffer: total + 1024 });
    // Each: "<id> blob <size>\n<bytes>\n".
    let at = 0;
    while (at < out.length) {
      const eol = out.indexOf(10, at);
      if (eol < 0) break;
      const [id = '', , size = '0'] = out.subarray(at, eol).toString('utf8').split(' ');
      const length = Number(size);
      result.set(id, Buffer.from(out.subarray(eol + 1, eol + 1 + length)));
      at = eol + 1 + length + 1;
    }
    return result;
  }

  private gitOptions(layout: Layout, timeoutMs: number): SafeGitOptions {
    return { cwd: layout.workTree, timeoutMs, repository: { gitDir: layout.gitDir, workTree: layout.workTree, indexFile: layout.indexFile }, ownRepository: true, config: STORE_CONFIG };
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private ready(): Promise<Layout> {
    this.layout ??= this.create().catch((error: unknown) => {
      this.layout = undefined; // the next command tries again (the folder may be writable by then)
      throw error;
    });
    return this.layout;
  }

  private async create(): Promise<Layout> {
    const workspace = await fs.realpath(this.workspace);
    const repo = await repositoryOf(workspace);
    if (!repo && (await countFiles(workspace, MAX_FILES_OUTSIDE_GIT)) > MAX_FILES_OUTSIDE_GIT) {
      throw new Error(`the workspace is not in a git repository and holds more than ${MAX_FILES_OUTSIDE_GIT.toLocaleString('en-US')} files`);
    }
    const gitDir = path.join(this.storeDir, 'store.git');
    await fs.mkdir(this.storeDir, { recursive: true, mode: 0o700 });
    await safeGit('init', ['--bare', '-q'], { cwd: this.storeDir, repository: { gitDir } });
    await fs.mkdir(path.join(gitDir, 'info'), { recursive: true });
    await fs.mkdir(path.join(gitDir, 'objects', 'info'), { recursive: true });
    await fs.writeFile(path.join(gitDir, 'info', 'attributes'), STORE_ATTRIBUTES);
    const workTree = repo?.top ?? workspace;
    // The repository's own excludes (data, not programs), and cairn's folders when they sit in the work tree.
    const exclude = repo ? await fs.readFile(repo.exclude, 'utf8').catch(() => '') : '';
    const ours = (await Promise.all([this.storeDir, ...this.leaveOut].map((p) => fs.realpath(p).catch(() => path.resolve(p)))))
      .map((p) => path.relative(workTree, p))
      .filter((rel) => rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel))
      .map((rel) => `/${rel.split(path.sep).join('/')}/\n`);
    await fs.writeFile(path.join(gitDir, 'info', 'exclude'), `${exclude}\n${ours.join('')}`);
    // Read-only: unchanged tracked files are found there, not copied.
    if (repo) await fs.writeFile(path.join(gitDir, 'objects', 'info', 'alternates'), `${repo.objects}\n`);
    return { gitDir, workTree, indexFile: path.join(this.storeDir, 'index'), workspace };
  }
}

/**
 * The session's workspace snapshots, one private store per workspace a bash command ran in (the
 * session's, a worktree's), under the session's folder. They are a cache: what rewind needs is
 * copied into the checkpoints when a command ends, so the stores are deleted when the session ends.
 */
export class SessionSnapshots {
  private readonly stores = new Map<string, WorkspaceSnapshots>();

  /** `root`: the folder for the stores; `leaveOut`: folders never snapshotted (cairn's own). */
  constructor(readonly root: string, private readonly leaveOut: readonly string[] = []) {}

  of(workspace: string): WorkspaceSnapshots {
    const key = path.resolve(workspace);
    let store = this.stores.get(key);
    if (!store) {
      const name = createHash('sha256').update(key).digest('hex').slice(0, 16);
      store = new WorkspaceSnapshots(path.join(this.root, name), key, this.leaveOut);
      this.stores.set(key, store);
    }
    return store;
  }

  /** Takes the session workspace's first snapshot ahead of any command (the only slow one); a failure is reported when a command needs it. */
  warmUp(workspace: string): void {
    this.of(workspace).snapshot().catch(() => undefined);
  }

  /** Deletes every store at once, at the session's end (the disposal stack is synchronous). */
  readonly pruneNow = (): void => {
    try {
      fsSync.rmSync(this.root, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // A snapshot still writing into it: what is left is a cache, removed with the session's folder.
    }
  };
}

/** The repository the workspace is in: its top level, exclude file and object folder; undefined outside git. */
async function repositoryOf(workspace: string): Promise<{ top: string; exclude: string; objects: string } | undefined> {
  let out: string;
  try {
    out = await safeGit('rev-parse', ['--show-toplevel', '--git-path', 'info/exclude', '--git-path', 'objects'], { cwd: workspace, timeoutMs: 10_000 });
  } catch {
    return undefined; // not a repository (or one git will not read): the workspace alone, as outside git
  }
  const [top = '', exclude = '', objects = ''] = out.split('\n');
  if (top === '') return undefined;
  return { top: await fs.realpath(top), exclude: path.resolve(workspace, exclude), objects: path.resolve(workspace, objects) };
}

/** How many files are under `dir`, counting no further than just past `cap`. */
async function countFiles(dir: string, cap: number): Promise<number> {
  let count = 0;
  const pending = [dir];
  while (pending.length > 0 && count <= cap) {
    const folder = pending.pop() ?? dir;
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (entry.name !== '.git') pending.push(path.join(folder, entry.name));
      } else count++;
    }
  }
  return count;
}
