// Fetching a marketplace or a plugin that lives in a git repository: a shallow clone with the
// user's git (git from the PATH's absolute folders, as safe-git finds it). Nothing of the
// repository runs: a clone copies no hooks, and no checkout filter the repository could name is
// configured for it. Local paths and file:// URLs work offline.
import { execFile } from 'node:child_process';
import { gitExecutable } from '../util/safe-git.js';

const CLONE_TIMEOUT_MS = 120_000;

function git(args: string[], cwd: string): Promise<string> {
  return gitExecutable().then(
    (bin) =>
      new Promise<string>((resolve, reject) => {
        execFile(bin, args, { cwd, timeout: CLONE_TIMEOUT_MS, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
          if (error) reject(new Error(stderr.trim() || error.message));
          else resolve(stdout.trim());
        });
      }),
  );
}

/** Clones `url` (at `ref`, a branch or tag, when given) into `dest`; resolves the commit checked out. Rejects with git's message. */
export async function cloneRepository(url: string, dest: string, ref?: string): Promise<string> {
  await git(['-c', 'core.hooksPath=/dev/null', 'clone', '--quiet', '--depth', '1', ...(ref ? ['--branch', ref] : []), '--', url, dest], process.cwd());
  return git(['-c', 'core.fsmonitor=', 'rev-parse', 'HEAD'], dest);
}

/** `owner/repo` as GitHub's clone URL. */
export function githubUrl(repo: string): string {
  return `https://github.com/${repo}.git`;
}

/** Whether the text is a git URL rather than a path: a scheme, scp-style `user@host:path`, or a `.git` ending. */
export function looksLikeGitUrl(text: string): boolean {
  return /^(https?|ssh|git|file):\/\//.test(text) || /^[\w.-]+@[\w.-]+:/.test(text);
}

/** `owner/repo` (GitHub's short form). */
export function looksLikeGithubRepo(text: string): boolean {
  return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(text);
}
