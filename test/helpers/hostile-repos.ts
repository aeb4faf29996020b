import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { git } from './test-git.js';

/**
 * Git repositories whose own configuration runs a program when git reads them (issue 29): each
 * program appends to `pwned`. cairn's own git calls (system prompt, @-file index) must leave that
 * file absent and still report the branch, status and files below.
 */
export interface HostileRepo {
  /** The working tree cairn is started in. */
  readonly dir: string;
  /** Created by any of the repository's programs that runs. */
  readonly pwned: string;
}

/** What every hostile repo holds: `a.txt` touched (same content, older mtime: git re-hashes it, runs filters and rewrites the index), `b.txt` modified, `new.txt` untracked. */
export const HOSTILE_BRANCH = 'main';
export const HOSTILE_STATUS = ' M b.txt\n?? new.txt';

export type HostileKind = 'fsmonitor' | 'hooks' | 'filter' | 'pager-diff-textconv' | 'commondir' | 'gitdir-file' | 'submodule';
export const HOSTILE_KINDS: readonly HostileKind[] = ['fsmonitor', 'hooks', 'filter', 'pager-diff-textconv', 'commondir', 'gitdir-file', 'submodule'];

/** `git ls-files -co --exclude-standard`, sorted; the submodule kind adds its `.gitmodules` and the submodule itself. */
export function hostileFiles(kind: HostileKind): string[] {
  return ['.gitattributes', ...(kind === 'submodule' ? ['.gitmodules'] : []), 'a.txt', 'b.txt', 'new.txt', ...(kind === 'submodule' ? ['sub'] : [])];
}


/** A shell script that records its name and arguments in `pwned`; a filter, textconv or pager then passes stdin through. */
async function evilScript(dir: string, pwned: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.mkdir(dir, { recursive: true });
  const passThrough = ['clean', 'smudge', 'textconv', 'pager', 'pager-status'].includes(name) ? 'cat\n' : '';
  await fs.writeFile(file, `#!/bin/sh\necho "${name} $*" >> '${pwned}'\n${passThrough}`, { mode: 0o755 });
  return file;
}

/** `git config --file <config> key value` for each pair. */
function configure(config: string, pairs: ReadonlyArray<readonly [string, string]>): void {
  for (const [key, value] of pairs) execFileSync('git', ['config', '--file', config, key, value]);
}

export async function hostileRepo(kind: HostileKind): Promise<HostileRepo> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-hostile-')));
  const dir = path.join(base, 'ws');
  const pwned = path.join(base, 'PWNED');
  await fs.mkdir(dir);
  git(dir, 'init', '-q', '-b', HOSTILE_BRANCH);
  await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
  await fs.writeFile(path.join(dir, 'b.txt'), 'beta\n');
  await fs.writeFile(path.join(dir, '.gitattributes'), '* filter=evil diff=evil\n');
  if (kind === 'submodule') {
    const origin = path.join(base, 'sub-origin');
    await fs.mkdir(origin);
    git(origin, 'init', '-q', '-b', HOSTILE_BRANCH);
    await fs.writeFile(path.join(origin, 'x.txt'), 'x\n');
    await fs.writeFile(path.join(origin, '.gitattributes'), '* filter=evil\n');
    git(origin, 'add', '.');
    git(origin, 'commit', '-q', '-m', 'sub');
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'sub');
  }
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'init');
  // The traps are set after the commit, so setting up ran none of them.
  const gitDir = path.join(dir, '.git');
  const evil = (name: string) => evilScript(path.join(base, 'bin'), pwned, name);
  switch (kind) {
    case 'fsmonitor':
      configure(path.join(gitDir, 'config'), [['core.fsmonitor', await evil('fsmonitor')]]);
      break;
    case 'hooks': {
      const hooks = path.join(base, 'hooks');
      for (const hook of ['post-index-change', 'reference-transaction', 'post-checkout', 'pre-commit', 'pre-auto-gc']) await evilScript(hooks, pwned, hook);
      configure(path.join(gitDir, 'config'), [['core.hooksPath', hooks]]);
      break;
    }
    case 'filter':
      configure(path.join(gitDir, 'config'), [['filter.evil.clean', await evil('clean')], ['filter.evil.smudge', await evil('smudge')], ['filter.evil.required', 'true']]);
      break;
    case 'pager-diff-textconv':
      configure(path.join(gitDir, 'config'), [
        ['core.pager', await evil('pager')],
        ['pager.status', await evil('pager-status')],
        ['diff.external', await evil('external-diff')],
        ['diff.evil.textconv', await evil('textconv')],
        ['diff.evil.command', await evil('diff-driver')],
        ['credential.helper', await evil('credential')],
        ['core.sshCommand', await evil('ssh')],
      ]);
      break;
    case 'commondir': {
      // `.git/commondir` sends git to another directory for config, refs and objects.
      const common = path.join(base, 'common');
      await fs.cp(gitDir, common, { recursive: true });
      configure(path.join(common, 'config'), [['core.fsmonitor', await evil('fsmonitor')]]);
      await fs.writeFile(path.join(gitDir, 'commondir'), `${common}\n`);
      break;
    }
    case 'gitdir-file': {
      // A `.git` file: `gitdir:` names the repository, anywhere.
      const elsewhere = path.join(base, 'elsewhere.git');
      await fs.rename(gitDir, elsewhere);
      await fs.writeFile(path.join(dir, '.git'), `gitdir: ${elsewhere}\n`);
      configure(path.join(elsewhere, 'config'), [['core.fsmonitor', await evil('fsmonitor')], ['filter.evil.clean', await evil('clean')]]);
      break;
    }
    case 'submodule': {
      // `git status` runs `git status` inside each submodule, which reads the submodule's own config.
      configure(path.join(gitDir, 'modules', 'sub', 'config'), [['filter.evil.clean', await evil('clean')], ['core.fsmonitor', await evil('fsmonitor')]]);
      const old = new Date('2001-01-01T00:00:00Z');
      await fs.utimes(path.join(dir, 'sub', 'x.txt'), old, old);
      break;
    }
  }
  const old = new Date('2001-01-01T00:00:00Z');
  await fs.utimes(path.join(dir, 'a.txt'), old, old);
  await fs.writeFile(path.join(dir, 'b.txt'), 'beta, changed\n');
  await fs.writeFile(path.join(dir, 'new.txt'), 'new\n');
  return { dir, pwned };
}

/** What the repository's programs wrote, or undefined when none ran. */
export async function pwnedBy(repo: HostileRepo): Promise<string | undefined> {
  return fs.readFile(repo.pwned, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
}
