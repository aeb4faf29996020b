import { basename, relative, sep } from 'node:path';
import { isInside } from './paths.js';

/**
 * Paths whose change would let the agent grant itself permissions, plant code that runs later
 * (git hooks, shell start-up files, MCP servers, hooks) or reach other machines (ssh keys).
 * Writes to them ask in every mode but bypassPermissions, whatever the allow rules say.
 */
const PROTECTED_DIRS = new Set(['.git', '.cairn', '.claude', '.husky', '.vscode', '.idea', '.devcontainer']);
const PROTECTED_FILES = new Set([
  '.hooks.json', '.mcp.json', '.claude.json', '.gitconfig', '.gitmodules', '.gitattributes', '.npmrc', '.yarnrc', '.yarnrc.yml',
  '.envrc', '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin',
  '.zlogout', '.cshrc', '.tcshrc', '.kshrc', '.inputrc', '.pypirc', '.netrc',
]);
// Under home: folders whose files configure programs that run with the user's rights.
const PROTECTED_HOME_DIRS = ['.ssh', '.gnupg', '.aws', '.kube', '.docker', join('.config', 'git'), join('.config', 'fish'), '.local/bin'];

function join(...parts: string[]): string {
  return parts.join(sep);
}

/** Why a path (already resolved through symlinks) is protected, or undefined. */
export function protectedReason(real: string, bases: { workspace: string; home: string }): string | undefined {
  const name = basename(real);
  if (PROTECTED_FILES.has(name)) return `${name} configures programs that run later`;
  const within = isInside(bases.workspace, real) ? relative(bases.workspace, real) : isInside(bases.home, real) ? relative(bases.home, real) : real;
  const segments = within.split(sep).filter((s) => s !== '');
  const dir = segments.slice(0, -1).find((s) => PROTECTED_DIRS.has(s)) ?? (PROTECTED_DIRS.has(name) ? name : undefined);
  if (dir !== undefined) return `${dir}/ holds configuration and hooks that run later`;
  if (isInside(bases.home, real)) {
    const rel = relative(bases.home, real);
    const hit = PROTECTED_HOME_DIRS.find((d) => rel === d || rel.startsWith(`${d}${sep}`));
    if (hit !== undefined) return `~/${hit} holds credentials or start-up configuration`;
  }
  return undefined;
}
