import { safeGit } from '../util/safe-git.js';

export interface GitInfo {
  branch: string;
  /** `git status --short`, capped. */
  status: string;
}

/** A snapshot taken once per session, so the system prompt stays stable for prompt caching. */
export async function readGitInfo(cwd: string): Promise<GitInfo | undefined> {
  try {
    const [branch, status] = await Promise.all([
      safeGit('rev-parse', ['--abbrev-ref', 'HEAD'], { cwd, timeoutMs: 3000 }),
      safeGit('status', ['--short'], { cwd, timeoutMs: 3000 }),
    ]);
    const lines = status.split('\n').filter(Boolean);
    const shown = lines.slice(0, 20).join('\n');
    const more = lines.length > 20 ? `\n... and ${lines.length - 20} more` : '';
    return { branch: branch.trim(), status: lines.length === 0 ? '(clean)' : shown + more };
  } catch {
    return undefined; // not a git repository, no git, or one git will not read (safe-git.ts): the prompt just omits it
  }
}
