import { lstatSync, realpathSync } from 'node:fs';
import { basename, join as joinPath, relative, sep } from 'node:path';
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

/**
 * Protected folders of the workspace reached through a link (the repository ships `.cairn -> conf`):
 * their real places, so `conf/settings.local.json` is as protected as `.cairn/settings.local.json`.
 */
export function linkedProtectedPlaces(workspace: string): string[] {
  const places: string[] = [];
  for (const name of [...PROTECTED_DIRS, ...PROTECTED_FILES]) {
    const p = joinPath(workspace, name);
    try {
      if (!lstatSync(p).isSymbolicLink()) continue;
      places.push(realpathSync(p));
    } catch {
      // Absent, or a dangling link: a write through it is judged where it lands (realpathLongestPrefix).
    }
  }
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
  const linked = linkedProtectedPlaces(bases.workspace).find((place) => isInside(place, real));
  if (linked !== undefined) return `${relative(bases.workspace, linked) || linked} is where a protected folder of the workspace links to`;
  if (isInside(bases.home, real)) {
    const rel = relative(bases.home, real);
    const hit = PROTECTED_HOME_DIRS.find((d) => rel === d || rel.startsWith(`${d}${sep}`));
    if (hit !== undefined) return `~/${hit} holds credentials or start-up configuration`;
  }
  return undefined;
}
