import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * git in a test's own repository: a fixed author, no hooks and no signing, whatever the machine's
 * git config says. Returns stdout.
 */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgSign=false', ...args], { cwd, encoding: 'utf8' });

/** A repository in `dir` with `file` committed as `committed`, then changed to `changed` and not committed. */
export async function repoWithUncommittedChange(dir: string, file: string, committed: string, changed: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), committed);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', `add ${file}`);
  await writeFile(path.join(dir, file), changed);
}
