import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join as joinPath, relative, resolve as resolvePath, sep } from 'node:path';
import { isInside } from './paths.js';

// The one list of places whose change would let the agent grant itself permissions, plant code that
// runs later (git hooks and config, shell start-up files, MCP servers, hooks, editor tasks) or reach
// other machines (ssh keys). The permission checker asks before a tool writes any of them (in every
// mode but bypassPermissions); the OS sandbox keeps them read-only, and uncreatable while absent,
// in every folder it lets commands write (src/sandbox/policy.ts reads the same list).

/** Folders that configure what runs later, at any depth of the workspace. */
export const PROTECTED_DIRS: readonly string[] = ['.git', '.cairn', '.claude', '.husky', '.vscode', '.idea', '.devcontainer'];
/** Files that configure what runs later, wherever they are. */
export const PROTECTED_FILES: readonly string[] = [
  '.hooks.json', '.mcp.json', '.claude.json', '.gitconfig', '.gitmodules', '.gitattributes', '.npmrc', '.yarnrc', '.yarnrc.yml',
  '.envrc', '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin',
  '.zlogout', '.cshrc', '.tcshrc', '.kshrc', '.inputrc', '.pypirc', '.netrc',
];
/**
 * Inside `.git`, which git itself must write (index, objects, refs), the parts that decide what git
 * runs: these stay read-only in the sandbox and uncreatable while absent. `commondir` is the one a
 * placeholder cannot hold (git refuses an empty one), so the sandbox removes it after a command that made it.
 */
export const PROTECTED_IN_GIT: readonly { name: string; kind: 'file' | 'dir' }[] = [
  { name: 'hooks', kind: 'dir' },
  { name: 'config', kind: 'file' },
  { name: 'modules', kind: 'dir' },
  { name: 'info', kind: 'dir' },
  { name: 'commondir', kind: 'file' },
];
// Under home: folders whose files configure programs that run with the user's rights.
const PROTECTED_HOME_DIRS = ['.ssh', '.gnupg', '.aws', '.kube', '.docker', ['.config', 'git'].join(sep), ['.config', 'fish'].join(sep), '.local/bin'];

// Compared without case: on macOS and Windows `.Cairn/` is `.cairn/`; on Linux asking for `.CAIRN/` costs nothing.
const DIRS = new Set(PROTECTED_DIRS.map((d) => d.toLowerCase()));
const FILES = new Set(PROTECTED_FILES.map((f) => f.toLowerCase()));

/** How many entries inside the protected folders are looked at for links (a big .idea is cut short). */
const LINK_SCAN_ENTRIES = 500;

/**
 * Where a write through the link `p` lands: its real place, or for a dangling link (`.cairn -> conf`
 * before `conf` exists) the place its target would be created at, so creating it is asked about too.
 */
export function landingPlace(p: string, hops = 0): string {
  try {
    return realpathSync(p);
  } catch {
    const target = resolvePath(dirname(p), readlinkSync(p));
    const tail: string[] = [];
    for (let at = target; ; at = dirname(at)) {
      try {
        if (lstatSync(at).isSymbolicLink() && hops < 8) return joinPath(landingPlace(at, hops + 1), ...tail);
        return joinPath(realpathSync(at), ...tail);
      } catch {
        if (dirname(at) === at) return target;
        tail.unshift(basename(at));
      }
    }
  }
}

/** The real place of `p` when it is a link, and of every link inside it when it is a folder (two levels down). */
function linkTargets(p: string, depth: number, budget: { left: number }, out: string[]): void {
  if (budget.left-- <= 0) return;
  try {
    const stat = lstatSync(p);
    if (stat.isSymbolicLink()) {
      out.push(landingPlace(p));
      return;
    }
    if (!stat.isDirectory() || depth === 0) return;
    for (const name of readdirSync(p)) linkTargets(joinPath(p, name), depth - 1, budget, out);
  } catch {
    // Absent, unreadable, or a dangling link: a write through it is judged where it lands (realpathLongestPrefix).
  }
}

/**
 * Protected places of the workspace reached through a link: the repository ships `.cairn -> conf`, or
 * a real `.claude/` whose `settings.json -> ../conf/c.json`, or `.git/hooks/pre-commit -> ../../scripts/pc`.
 * Their real places, so `conf/settings.local.json` is as protected as `.cairn/settings.local.json`.
 * In `.git` only the parts that decide what git runs are looked into (not its objects).
 */
export function linkedProtectedPlaces(workspace: string): string[] {
  const places: string[] = [];
  const budget = { left: LINK_SCAN_ENTRIES };
  for (const name of [...PROTECTED_DIRS.filter((d) => d !== '.git'), ...PROTECTED_FILES]) linkTargets(joinPath(workspace, name), 2, budget, places);
  const git = joinPath(workspace, '.git');
  linkTargets(git, 0, budget, places);
  for (const part of PROTECTED_IN_GIT) linkTargets(joinPath(git, part.name), 2, budget, places);
  return places;
}

/** Why a path (already resolved through symlinks) is protected, or undefined. */
export function protectedReason(real: string, bases: { workspace: string; home: string }): string | undefined {
  const name = basename(real);
  if (FILES.has(name.toLowerCase())) return `${name} configures programs that run later`;
  const within = isInside(bases.workspace, real) ? relative(bases.workspace, real) : isInside(bases.home, real) ? relative(bases.home, real) : real;
  const segments = within.split(sep).filter((s) => s !== '');
  const dir = segments.slice(0, -1).find((s) => DIRS.has(s.toLowerCase())) ?? (DIRS.has(name.toLowerCase()) ? name : undefined);
  if (dir !== undefined) return `${dir}/ holds configuration and hooks that run later`;
  // Without case, as the names above: on macOS and Windows `CONF/` is the `conf/` that `.cairn` links to.
  const linked = linkedProtectedPlaces(bases.workspace).find((place) => isInside(place.toLowerCase(), real.toLowerCase()));
  if (linked !== undefined) return `${relative(bases.workspace, linked) || linked} is where a protected folder of the workspace links to`;
  if (isInside(bases.home, real)) {
    const rel = relative(bases.home, real);
    const hit = PROTECTED_HOME_DIRS.find((d) => rel === d || rel.startsWith(`${d}${sep}`));
    if (hit !== undefined) return `~/${hit} holds credentials or start-up configuration`;
  }
  return undefined;
}
