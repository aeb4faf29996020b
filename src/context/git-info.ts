import { execFile } from 'node:child_process';

export interface GitInfo {
  branch: string;
  /** `git status --short`, capped. */
  status: string;
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, timeout: 3000, maxBuffer: 1 << 20 }, (error: Error | null, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

/** A snapshot taken once per session, so the system prompt stays stable for prompt caching. */
export async function readGitInfo(cwd: string): Promise<GitInfo | undefined> {
  try {
    const [branch, status] = await Promise.all([git(cwd, ['rev-parse', '--abbrev-ref', 'HEAD']), git(cwd, ['status', '--short'])]);
    const lines = status.split('\n').filter(Boolean);
    const shown = lines.slice(0, 20).join('\n');
    const more = lines.length > 20 ? `\n... and ${lines.length - 20} more` : '';
    return { branch: branch.trim(), status: lines.length === 0 ? '(clean)' : shown + more };
  } catch {
    return undefined; // not a git repository, or no git: the prompt just omits it
  }
}
