import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Every git command cairn runs on its own behalf (the system prompt's git section, the @-file
 * index) goes through here; the model's bash commands do not (those are the permission checker's
 * and the sandbox's). cairn runs these in any folder, trusted or not, before anyone is asked
 * anything, so git must read the repository without running any program the repository names:
 * `.git/config` (or the config a `.git/commondir` or a `.git` file's `gitdir:` leads to, or an
 * include) can name an fsmonitor hook, hooks, filters, pagers, diff drivers and more.
 *
 * Command-line `-c` settings outrank every config file, include and redirect, so the executable
 * settings are switched off there. git's own ownership check (`safe.directory`) is left as it is:
 * a repository owned by someone else makes these commands fail, and callers fall back.
 */

/** The read-only subcommands cairn runs, each with the flags that keep it from running drivers. Callers' own arguments come after these. */
const SUBCOMMAND_FLAGS = {
  'rev-parse': [],
  // Without --recurse-submodules (which submodule.recurse does not turn on for ls-files) it reads only this index.
  'ls-files': [],
  // A dirty check runs `git status` inside each submodule, under the submodule's own config, whose
  // filters `repositoryFilters` has not seen; =dirty compares the submodule's commit in-process.
  status: ['--ignore-submodules=dirty'],
  // diff.external and diff.<driver>.command / textconv (an empty `-c diff.external=` makes git try to run ""; these flags are the off switch).
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty'],
  // As diff, and log.showSignature would run gpg.program.
  log: ['--no-ext-diff', '--no-textconv', '--no-show-signature'],
  show: ['--no-ext-diff', '--no-textconv', '--no-show-signature'],
  // The bash snapshots' private store (workspace-snapshots.ts): --template= copies no hook or other file in (init.templateDir is the user's).
  init: ['--template='],
  // Hashes files into the store named by GIT_DIR/GIT_INDEX_FILE; the filters it would run are off (repositoryFilters).
  add: [],
  'write-tree': [],
  // Only index flags (--skip-worktree): no --refresh, which would run filters.
  'update-index': [],
  'diff-tree': ['--no-ext-diff', '--no-textconv'],
  // Raw objects: no --filters or --textconv.
  'cat-file': [],
  // `cairn -w` (session-worktree.ts): add checks files out (smudge filters off, post-checkout under
  // /dev/null); remove is only ever --force after cairn's own status check (its own check runs a
  // status child in every submodule).
  worktree: [],
  // Only `branch -D <name>` of a subagent's worktree branch that has nothing on it (agent-worktree.ts): no hook runs.
  branch: [],
} as const satisfies Record<string, readonly string[]>;

export type SafeGitSubcommand = keyof typeof SUBCOMMAND_FLAGS;

/** Before the subcommand, for every call. */
const GLOBAL_ARGS = [
  // Pagers (core.pager, pager.<cmd>): git pages only to a terminal, and this is never one; explicit anyway.
  '--no-pager',
  // Empty, not "false": before git 2.36 the value is a hook path, and "false" would be looked up as a program.
  // Off in the user's global config too: these one-shot reads need no fsmonitor.
  '-c', 'core.fsmonitor=',
  // status rewrites the index after a refresh and runs post-index-change; nothing under /dev/null runs.
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.pager=cat',
  // cairn's own commands never fetch: no transport (ssh, remote helpers, ext::, a partial clone's lazy
  // fetch), and so no core.sshCommand, core.gitProxy or credential helper either; the rest empties them anyway.
  '-c', 'protocol.allow=never',
  '-c', 'core.sshCommand=',
  '-c', 'credential.helper=',
  '-c', 'core.askPass=',
  // uploadpack.packObjectsHook is honoured only from the user's own config, and only by upload-pack: not needed here.
];

/**
 * Also for every call: the child's environment. GIT_CONFIG_NOSYSTEM is deliberately not set:
 * the system config is the machine owner's, not the repository's.
 */
function gitEnv(repository?: SafeGitOptions['repository']): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Never wait on a username/password prompt.
    GIT_TERMINAL_PROMPT: '0',
    // status neither takes index.lock (racing the user's own git) nor writes the refreshed index.
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    // git 2.45+: a partial clone does not fetch missing objects (older gits: protocol.allow=never stops it).
    GIT_NO_LAZY_FETCH: '1',
  };
  delete env['GIT_EXTERNAL_DIFF'];
  if (repository) {
    for (const name of ['GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE']) delete env[name];
    env['GIT_DIR'] = repository.gitDir;
    if (repository.workTree !== undefined) env['GIT_WORK_TREE'] = repository.workTree;
    if (repository.indexFile !== undefined) env['GIT_INDEX_FILE'] = repository.indexFile;
  }
  return env;
}

export interface SafeGitOptions {
  cwd: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBuffer?: number;
  /**
   * Which repository, index and work tree (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE): set, they replace
   * any the environment had, and the object, common-dir and alternate variables are cleared.
   */
  repository?: { gitDir: string; workTree?: string; indexFile?: string };
  /** More `-c name=value` settings, after the ones that switch programs off (so they cannot switch one back on: see GLOBAL_ARGS). */
  config?: readonly string[];
  /** Written to git's standard input. */
  input?: string;
  /**
   * `repository` is cairn's own (a bare store it made under its home, which sandboxed commands cannot
   * write, whose attributes unset every filter): its config is not scanned for filters, saving a git
   * run per call. Never for a repository the user or the model made.
   */
  ownRepository?: boolean;
}

/** Runs `git <subcommand> <args>` with the repository's programs switched off; resolves stdout, rejects with git's stderr. */
export async function safeGit(subcommand: SafeGitSubcommand, args: readonly string[], opts: SafeGitOptions): Promise<string> {
  return (await safeGitRun(subcommand, args, opts, 'utf8')) as string;
}

/** As safeGit, with stdout as bytes (cat-file's blobs). */
export async function safeGitBytes(subcommand: SafeGitSubcommand, args: readonly string[], opts: SafeGitOptions): Promise<Buffer> {
  return (await safeGitRun(subcommand, args, opts, 'buffer')) as Buffer;
}

async function safeGitRun(subcommand: SafeGitSubcommand, args: readonly string[], opts: SafeGitOptions, encoding: 'utf8' | 'buffer'): Promise<string | Buffer> {
  for (const setting of opts.config ?? []) {
    if (PROGRAM_SETTING.test(setting)) throw new Error(`git: refusing the setting ${setting}: it names a program`);
  }
  const git = await gitExecutable();
  // init makes the repository: there is no config yet, and it runs no filter.
  const filters = subcommand === 'init' || (opts.ownRepository && opts.repository) ? [] : await repositoryFilters(git, opts);
  const extra = (opts.config ?? []).flatMap((c) => ['-c', c]);
  return run(git, [...GLOBAL_ARGS, ...filters, ...extra, subcommand, ...SUBCOMMAND_FLAGS[subcommand], ...args], opts, `git ${subcommand}`, encoding);
}

/** Settings a caller's `config` may not carry: they would undo GLOBAL_ARGS or the filters' off switches. */
const PROGRAM_SETTING = /^(core\.(fsmonitor|hookspath|pager|sshcommand|askpass|editor|gitproxy)|filter\.|diff\.|credential\.|protocol\.|uploadpack\.|pager\.|gpg\.)/i;

/**
 * `-c` settings that switch off every filter driver (filter.<name>.clean/smudge/process, which
 * status runs on files whose timestamps changed) defined by the repository's config. The user's own
 * (system, global, command-line scope: git-lfs, say) stay on; status needs them to see a file as
 * unchanged. Driver names come from git itself, so includes and redirects are covered.
 */
async function repositoryFilters(git: string, opts: SafeGitOptions): Promise<string[]> {
  let listed: string;
  try {
    listed = (await run(git, [...GLOBAL_ARGS, 'config', '--show-scope', '-z', '--get-regexp', '^filter\\.'], opts, 'git config')).toString();
  } catch (error) {
    // Exit status 1: no filter is defined anywhere.
    if ((error as { code?: unknown }).code === 1) return [];
    throw error;
  }
  const names = new Set<string>();
  // -z: scope NUL key LF value NUL, repeated.
  const fields = listed.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i];
    const key = fields[i + 1]?.split('\n', 1)[0] ?? '';
    if (scope === 'system' || scope === 'global' || scope === 'command') continue;
    const name = key.slice('filter.'.length, key.lastIndexOf('.'));
    // `-c` splits at the first '=', so such a name cannot be switched off: refuse rather than run it.
    if (name.includes('=')) throw new Error(`git: the repository defines a filter named "${name}", which cairn cannot switch off; not running git here`);
    if (name !== '') names.add(name);
  }
  return [...names].flatMap((name) => ['clean', 'smudge', 'process'].flatMap((v) => ['-c', `filter.${name}.${v}=`]).concat('-c', `filter.${name}.required=false`));
}

function run(git: string, args: readonly string[], opts: SafeGitOptions, label: string, encoding: 'utf8' | 'buffer' = 'utf8'): Promise<string | Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      git,
      args,
      { cwd: opts.cwd, env: gitEnv(opts.repository), encoding, timeout: opts.timeoutMs ?? 0, maxBuffer: opts.maxBuffer ?? 1 << 20, ...(opts.signal ? { signal: opts.signal } : {}) },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        reject(Object.assign(new Error(`${label}: ${stderr.toString().trim() || error.message}`), { code: error.code }));
      },
    );
    // EPIPE when git exits before reading it all: the exit status above reports what went wrong.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(opts.input ?? '');
  });
}

let found: { pathEnv: string; git: Promise<string> } | undefined;

/**
 * git from the PATH's absolute folders only: an empty entry, `.` or `node_modules/.bin` would be
 * looked up from the repository's own folder, where a file named `git` is the repository's code.
 */
export function gitExecutable(): Promise<string> {
  const pathEnv = process.env['PATH'] ?? '';
  if (found?.pathEnv !== pathEnv) found = { pathEnv, git: findGit(pathEnv) };
  return found.git;
}

async function findGit(pathEnv: string): Promise<string> {
  for (const dir of pathEnv.split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const file = path.join(dir, process.platform === 'win32' ? 'git.exe' : 'git');
    const usable = await fs.access(file, constants.X_OK).then(
      () => true,
      () => false, // not in this folder: the next one
    );
    if (usable) return file;
  }
  throw Object.assign(new Error('git: not found in any absolute PATH folder'), { code: 'ENOENT' });
}
