import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Git runs programs its configuration names, on its own, at the user's next git command outside the
// sandbox: the hooks in `core.hooksPath` (`.githooks`), `core.fsmonitor` at every `git status`, a pager,
// an editor, a diff or merge driver, a clean/smudge filter. `.git/config` is read-only in the sandbox,
// but when that configuration already points into the workspace (a repository that keeps its hooks in
// `.githooks/`), the files it points to are as much "code that runs later" as `.git/hooks`. This
// finds them, so the sandbox keeps them read-only (and uncreatable while absent).

/** The keys whose value git runs or reads hooks from, as `git config --get-regexp` prints them (lower case). */
const RUN_KEYS =
  '^(core\\.(hookspath|fsmonitor|pager|editor|sshcommand|askpass|gitproxy)|sequence\\.editor|diff\\.external|diff\\..+\\.(textconv|command)|filter\\..+\\.(clean|smudge|process)|merge\\..+\\.driver|gpg\\.(.+\\.)?program|credential\\.helper|pager\\..+|interactive\\.difffilter)$';

export interface GitConfiguredPlaces {
  /** Existing places inside the root that git's configuration runs (absolute). */
  readOnly: string[];
  /** Absent ones, each as the topmost folder or file that does not exist yet (its parent does). */
  uncreatable: { path: string; kind: 'file' | 'dir' }[];
}

const isUnder = (root: string, p: string): boolean => p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** The configured values git would use in `root` (every config file git reads there), or none when git is absent or has none. */
function configuredValues(root: string): { key: string; value: string }[] {
  let out: string;
  try {
    out = execFileSync('git', ['config', '--null', '--get-regexp', RUN_KEYS], {
      cwd: root,
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    });
  } catch {
    return []; // exit 1: no such key; no git: nothing git would run
  }
  return out
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf('\n');
      return at < 0 ? { key: entry, value: '' } : { key: entry.slice(0, at), value: entry.slice(at + 1) };
    });
}

/** Paths a configured command names: its words that look like paths (`./tools/fsmon.sh`, `scripts/pager`), quotes stripped. */
function namedPaths(value: string): string[] {
  return value
    .split(/[\s;|&()<>]+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''))
    .filter((w) => w.includes('/') || w.startsWith('.'));
}

function expand(p: string, root: string): string {
  if (p === '~' || p.startsWith('~/')) return path.join(os.homedir(), p.slice(1));
  return path.resolve(root, p);
}

/** The first missing step from `root` down to `p`: creating it is what must be refused. */
function firstMissing(root: string, p: string): string {
  let at = p;
  while (path.dirname(at) !== root && isUnder(root, path.dirname(at)) && !existsSync(path.dirname(at))) at = path.dirname(at);
  return at;
}

/** The places inside `root` that its git configuration runs, existing or not. */
export function gitConfiguredPlaces(root: string): GitConfiguredPlaces {
  const found: GitConfiguredPlaces = { readOnly: [], uncreatable: [] };
  for (const { key, value } of configuredValues(root)) {
    const isHooks = key === 'core.hookspath';
    const candidates = isHooks ? [value] : namedPaths(value);
    for (const candidate of candidates) {
      if (candidate.trim() === '') continue;
      const p = expand(candidate, root);
      if (!isUnder(root, p)) continue;
      if (existsSync(p)) {
        found.readOnly.push(p);
        continue;
      }
      const missing = firstMissing(root, p);
      found.uncreatable.push({ path: missing, kind: missing === p && !isHooks ? 'file' : 'dir' });
    }
  }
  return found;
}
