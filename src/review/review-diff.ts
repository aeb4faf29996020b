import { safeGit } from '../util/safe-git.js';
import { errorMessage } from '../util/error-message.js';

/**
 * The change a review looks at, read by cairn itself through safe-git (no hook, fsmonitor, filter,
 * textconv, external diff or pager the repository names runs): the working tree against HEAD, or
 * a revision range the user gave (`main`, `HEAD~3..HEAD`, `main...feature`).
 */

/** Stands in a skill's body for the diff (the shipped review and security-review skills use it). */
export const GIT_DIFF_TOKEN = '${CAIRN_GIT_DIFF}';

/** The most diff text a prompt carries; the rest is named so the model can read it with git diff -- <path>. */
const MAX_DIFF_CHARS = 60_000;
/** Untracked files named; a folder of generated files must not fill the prompt. */
const MAX_UNTRACKED = 50;

// A revision or a range of two: names, ~ ^ @ {n} and :path are all git allows here; no option (a leading -) and no space.
const REVISION = /^(?!-)[\w./@^~{}:+-]+$/;

export type ReviewScope = { ok: true; range?: string } | { ok: false; message: string };

/** The argument of /review as a scope: empty is the working tree; otherwise one revision or range, never an option. */
export function reviewScope(args: string): ReviewScope {
  const range = args.trim();
  if (range === '') return { ok: true };
  const sides = range.split(/\.\.\.?/);
  if (/\s/.test(range) || sides.length > 2 || !sides.every((s) => s === '' || REVISION.test(s)) || sides.every((s) => s === '')) {
    return { ok: false, message: `"${range}" is not a branch, commit or range (give one, like main, HEAD~3 or main...feature)` };
  }
  return { ok: true, range };
}

/** The diff, as the text a prompt carries: what was compared, the diff, untracked files named. Never throws: a failure is said in the text. */
export async function reviewDiffText(cwd: string, args: string, signal?: AbortSignal): Promise<string> {
  const scope = reviewScope(args);
  if (!scope.ok) return `(cairn could not read the diff: ${scope.message})`;
  const opts = { cwd, maxBuffer: 32 << 20, timeoutMs: 30_000, ...(signal ? { signal } : {}) };
  try {
    if (scope.range !== undefined) {
      const diff = await safeGit('diff', [scope.range, '--'], opts);
      return framed(`git diff ${scope.range}`, diff, []);
    }
    const hasHead = await safeGit('rev-parse', ['--verify', '--quiet', 'HEAD'], opts).then(
      () => true,
      () => false, // a repository with no commit yet: the staged files are the change
    );
    const diff = await safeGit('diff', hasHead ? ['HEAD', '--'] : ['--cached', '--'], opts);
    const status = await safeGit('status', ['--porcelain=v1', '-z', '--untracked-files=all'], opts);
    const untracked = status.split('\0').filter((e) => e.startsWith('?? ')).map((e) => e.slice(3));
    return framed(hasHead ? 'git diff HEAD (staged and unstaged changes)' : 'git diff --cached (no commit yet)', diff, untracked);
  } catch (error) {
    return `(cairn could not read the diff: ${errorMessage(error)})`;
  }
}

function framed(what: string, diff: string, untracked: readonly string[]): string {
  const cut = diff.length > MAX_DIFF_CHARS;
  const shown = cut ? diff.slice(0, MAX_DIFF_CHARS) : diff;
  const lines = [
    `The change, read by cairn (${what}):`,
    '',
    diff.trim() === '' ? '(no changes in tracked files)' : `<diff>\n${shown.replace(/\n$/, '')}\n</diff>`,
  ];
  if (cut) lines.push('', `(The diff was cut at ${MAX_DIFF_CHARS} of ${diff.length} characters: read the rest per file with git diff.)`);
  const named = untracked.slice(0, MAX_UNTRACKED);
  const more = untracked.length > named.length ? ` and ${untracked.length - named.length} more (git status lists them)` : '';
  if (untracked.length > 0) lines.push('', `Untracked files, not in the diff (read them whole): ${named.join(', ')}${more}`);
  return lines.join('\n');
}
