import path from 'node:path';
import { PROTECTED_DIRS, PROTECTED_FILES, PROTECTED_IN_GIT } from '../permissions/protected-paths.js';

// What the operating-system sandbox lets a command do, as plain data: the bwrap argv and the
// Seatbelt profile are both generated from it, so Linux and macOS enforce the same boundary.

/** Places inside a writable root that stay read-only: the permission checker's list (protected-paths.ts), as paths from the root. */
export const PROTECTED_IN_WORKSPACE: readonly string[] = [
  ...PROTECTED_IN_GIT.map((p) => `.git/${p.name}`),
  ...PROTECTED_DIRS.filter((d) => d !== '.git'),
  ...PROTECTED_FILES,
];

/**
 * Names that must stay uncreatable while absent: a new `.claude/settings.local.json`, `.mcp.json`,
 * `.gitattributes` or `.git/hooks/pre-commit` (after a `git init` inside) would take effect later,
 * outside the sandbox. Each gets an empty read-only placeholder while a command runs, so the list is
 * the names something reads from the workspace root (shell start-up files are read from home, which
 * is not writable). `.git/commondir` is swept after the command instead: git refuses a placeholder.
 */
export const GUARD_WHEN_ABSENT: ReadonlyMap<string, 'file' | 'dir'> = new Map([
  ['.git', 'dir'],
  ...PROTECTED_IN_GIT.filter((p) => p.name !== 'commondir').map((p): [string, 'file' | 'dir'] => [`.git/${p.name}`, p.kind]),
  ...PROTECTED_DIRS.filter((d) => d !== '.git').map((d): [string, 'file' | 'dir'] => [d, 'dir']),
  ...['.mcp.json', '.hooks.json', '.gitattributes', '.gitmodules', '.npmrc', '.envrc'].map((f): [string, 'file' | 'dir'] => [f, 'file']),
]);

/** Files a command in the sandbox may create but that must not outlive it (removed afterwards, and the result says so). */
export const SWEPT_AFTER = ['.git/commondir'] as const;

export interface SandboxPolicy {
  /** The workspace root (resolved through symlinks): writable, the command's working directory. */
  workspace: string;
  /** Every writable directory: the workspace, additional directories, the session's temp dir, `filesystem.allowWrite`. */
  writable: string[];
  /** Paths inside a writable root that stay read-only when they exist (absolute). */
  readOnly: string[];
  /** Paths inside a writable root that the command cannot create while they are absent, with what they would be. */
  uncreatable: { path: string; kind: 'file' | 'dir' }[];
  /** Paths hidden from the command entirely (`filesystem.denyRead`), absolute. */
  denyRead: string[];
  /** The per-session temp dir: the sandbox's /tmp (and TMPDIR), kept between the session's commands. */
  tempDir: string;
  network: {
    /** false: no network namespace of its own (`network.allowAll`); the host network as is. */
    restricted: boolean;
    /** Domains reachable without asking; `*.example.com` covers subdomains. */
    allowedDomains: string[];
  };
}

export interface PolicyInput {
  workspace: string;
  additionalDirectories?: readonly string[];
  tempDir: string;
  /** The user's home, for `~/` in settings paths. */
  home: string;
  filesystem?: { allowWrite?: readonly string[]; denyWrite?: readonly string[]; denyRead?: readonly string[] };
  network?: { allowedDomains?: readonly string[]; allowAll?: boolean };
}

/** A settings path: `~/x` under home, relative to the workspace, or absolute. */
export function expandPath(p: string, workspace: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return path.resolve(workspace, p);
}

const unique = (list: string[]): string[] => [...new Set(list)];

/** The policy for one session. Pure: whether paths exist is decided when the command is wrapped. */
export function buildPolicy(input: PolicyInput): SandboxPolicy {
  const fs = input.filesystem ?? {};
  const expand = (p: string): string => expandPath(p, input.workspace, input.home);
  const writable = unique([
    input.workspace,
    ...(input.additionalDirectories ?? []).map(expand),
    input.tempDir,
    ...(fs.allowWrite ?? []).map(expand),
  ]);
  const roots = writable.filter((w) => w !== input.tempDir);
  const readOnly = unique([
    ...roots.flatMap((root) => PROTECTED_IN_WORKSPACE.map((p) => path.join(root, p))),
    ...(fs.denyWrite ?? []).map(expand),
  ]);
  const uncreatable = roots.flatMap((root) => [...GUARD_WHEN_ABSENT].map(([name, kind]) => ({ path: path.join(root, name), kind })));
  return {
    workspace: input.workspace,
    writable,
    readOnly,
    uncreatable,
    denyRead: unique((fs.denyRead ?? []).map(expand)),
    tempDir: input.tempDir,
    network: { restricted: input.network?.allowAll !== true, allowedDomains: unique([...(input.network?.allowedDomains ?? [])]) },
  };
}

const isUnder = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * The policy of an agent that works in its own folder (a subagent's git worktree, issue 38): that
 * folder takes the workspace's place as the writable root, with the same protected names in it;
 * the session's workspace is no longer writable, and nothing else is added. The worktree lives in
 * the workspace's protected `.cairn/`, so the places that contain it are dropped from the read-only
 * list (they are no longer inside a writable root anyway; Seatbelt would deny the worktree with them).
 */
export function rootedAt(policy: SandboxPolicy, dir: string): SandboxPolicy {
  const old = policy.workspace;
  const writable = unique([dir, ...policy.writable.filter((w) => w !== old)]);
  const keep = (p: string): boolean => !isUnder(p, dir) && (!isUnder(old, p) || writable.some((w) => w !== dir && w !== policy.tempDir && isUnder(w, p)));
  return {
    ...policy,
    workspace: dir,
    writable,
    readOnly: unique([...policy.readOnly.filter(keep), ...PROTECTED_IN_WORKSPACE.map((p) => path.join(dir, p))]),
    uncreatable: [...policy.uncreatable.filter((u) => keep(u.path)), ...[...GUARD_WHEN_ABSENT].map(([name, kind]) => ({ path: path.join(dir, name), kind }))],
  };
}

/** Whether a host name is on an allow list (`example.com` exactly, `*.example.com` any subdomain). */
export function domainAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase().replace(/\.$/, '');
    if (p.startsWith('*.')) return h.endsWith(p.slice(1));
    return h === p;
  });
}
