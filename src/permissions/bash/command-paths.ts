import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { isInside, resolveToolPath } from '../paths.js';
import type { ResolvedPath } from '../paths.js';
import { protectedReason } from '../protected-paths.js';
import type { PathBases } from '../rules/match.js';
import type { PermissionCheck } from '../types.js';

// Characters that make bash compute a path at run time: expansions, substitutions, brace expansion.
const COMPUTED = /[$`{]/;
export const GLOB = /[*?[]/;
// Script files cairn reads to see what `source x.sh` or `bash x.sh` runs; bigger ones are not read.
const MAX_SCRIPT_BYTES = 256 * 1024;

/**
 * The path a target stands for before the command runs, or why it cannot be known. A glob stands for
 * its directory: `src/*.o` can only match inside `src`, as a pattern segment can only match a name
 * starting with `.` when the segment itself starts with one. `~root/x`, `~-/x` and `~+/x` are other
 * users' homes or other directories, never workspace folders named `~root`.
 */
export function staticPath(target: string, changesDirectory: boolean): { path: string } | { why: string } {
  // `{}` is not a brace expansion: find -exec's placeholder, judged as a file under find's start point.
  if (COMPUTED.test(target.replaceAll('{}', ''))) return { why: `${target} is computed at run time` };
  if (target.startsWith('~') && target !== '~' && !target.startsWith('~/')) return { why: `${target} is another user's home or directory` };
  if (changesDirectory && !target.startsWith('/') && !target.startsWith('~')) return { why: `${target} is relative to a directory the command changes to` };
  if (!GLOB.test(target)) return { path: target };
  const segments = target.split('/');
  const first = segments.findIndex((s) => GLOB.test(s));
  if (segments.slice(first).some((s) => s.startsWith('.') || s.includes('\\'))) return { why: `the pattern ${target} can match hidden files and ..` };
  const prefix = segments.slice(0, first).join('/');
  return { path: prefix === '' ? (target.startsWith('/') ? '/' : '.') : prefix };
}

/** Why a path argument cannot be located before the command runs, or undefined. */
export function unresolvable(target: string, changesDirectory: boolean): string | undefined {
  const r = staticPath(target, changesDirectory);
  return 'why' in r ? r.why : undefined;
}

// Each path is resolved on disk: a command naming more than this many is asked about instead.
export const MAX_PATHS = 512;

function uniqueTargets(targets: readonly WriteTarget[]): WriteTarget[] {
  const seen = new Map<string, WriteTarget>();
  for (const t of targets) if (!seen.get(t.target)?.strict) seen.set(t.target, t);
  return [...seen.values()];
}

export interface Located {
  path: ResolvedPath;
  /** Inside the workspace both as written and through symlinks. */
  inside: boolean;
  protectedWhy?: string;
}

export async function locate(target: string, b: PathBases): Promise<Located> {
  const path = await resolveToolPath(target, b.cwd ?? b.workspace, b.home);
  const inside = isInside(b.workspace, path.real) && isInside(b.workspace, path.lexical);
  const why = protectedReason(path.real, b) ?? protectedReason(path.lexical, b);
  return why === undefined ? { path, inside } : { path, inside, protectedWhy: why };
}

export interface WriteTarget {
  target: string;
  /** As write_file would be judged (redirects, output options), or only kept inside and unprotected (file programs). */
  strict: boolean;
}

export interface WriteJudgement {
  /** A deny verdict (an Edit deny rule): the command is denied. */
  denied?: string;
  /** Why the writes need the user's approval. */
  reasons: string[];
  /** A write only the user may approve (a protected path, an ask rule, a path computed at run time): never auto mode's classifier. */
  userOnly?: boolean;
}

/**
 * Judges the files a command writes. A deny from the path side denies the command. Otherwise a strict
 * target must be allowed as write_file would be; a file program's target (and, under a bare Bash rule,
 * any target) must be inside the workspace and unprotected, or allowed by a rule that names it.
 */
export async function judgeWrites(
  targets: readonly WriteTarget[],
  changesDirectory: boolean,
  checkWrite: (target: string) => Promise<PermissionCheck>,
  b: PathBases,
): Promise<WriteJudgement> {
  const reasons: string[] = [];
  let userOnly = false;
  if (targets.length > MAX_PATHS) return { reasons: [`it writes ${targets.length} paths, more than cairn checks one by one`], userOnly: true };
  for (const { target, strict } of uniqueTargets(targets)) {
    const resolved = staticPath(target, changesDirectory);
    if ('why' in resolved) {
      reasons.push(`writes to ${target}, which cannot be resolved before it runs (${resolved.why})`);
      userOnly = true; // it could be a protected path
      continue;
    }
    // checkWrite places a relative path in the workspace: one written in a folder the command runs in is given whole.
    const placed = b.cwd !== undefined && !isAbsolute(resolved.path) && !resolved.path.startsWith('~') ? `${b.cwd}/${resolved.path}` : resolved.path;
    const verdict = await checkWrite(placed);
    if (verdict.behavior === 'deny') return { denied: `writes ${target}: ${verdict.reason}`, reasons, userOnly };
    if (verdict.behavior === 'allow') continue;
    const where = await locate(placed, b);
    if (!strict && where.inside && where.protectedWhy === undefined) continue;
    reasons.push(`writes ${target}: ${verdict.reason}`);
    if (verdict.classifiable !== true) userOnly = true;
  }
  return { reasons, userOnly };
}

/** Why a read-only part's path arguments keep it from running without approval, or undefined. */
export async function readsOutside(reads: readonly string[], changesDirectory: boolean, b: PathBases): Promise<string | undefined> {
  if (reads.length > MAX_PATHS) return `it reads ${reads.length} paths, more than cairn checks one by one`;
  for (const target of new Set(reads)) {
    const resolved = staticPath(target, changesDirectory);
    if ('why' in resolved) return `reads ${target}, which cannot be resolved before it runs (${resolved.why})`;
    const { inside, path } = await locate(resolved.path, b);
    // An added folder counts only when the path is in it both as written and through symlinks, as for read_file.
    const added = (b.readRoots ?? []).some((root) => isInside(root, path.real) && isInside(root, path.lexical));
    if (!inside && !added) return `reads ${target}, outside the workspace${b.readRoots?.length ? ' and the added directories' : ''}`;
  }
  return undefined;
}

// Arguments that name no file a program reads from the disk.
const NOT_A_READ = /^(-|\/dev\/(null|stdin|stdout|stderr|tty|zero|fd\/\d+))$/;

/**
 * Why a part allowed by a prefix rule reaches outside the workspace, or undefined. A rule for a
 * program that reads files (`Bash(cat:*)`, `Bash(cp:*)`) vouches for the program, not for every file
 * on the machine: any argument (or option value, `--file=F`) that names a place outside the
 * workspace and the added folders needs approval, as Claude Code asks for paths outside its
 * working directories. A word computed at run time could be anywhere, so it is asked too.
 */
export async function argsReachOutside(args: readonly { value: string; literal: boolean; glob?: boolean }[], changesDirectory: boolean, b: PathBases): Promise<string | undefined> {
  const candidates = args.flatMap((a) => {
    if (!a.value.startsWith('-')) return [a];
    const eq = a.value.indexOf('=');
    return eq > 0 ? [{ ...a, value: a.value.slice(eq + 1) }] : [];
  });
  const words = candidates.filter((c) => c.value !== '' && !NOT_A_READ.test(c.value));
  if (words.length > MAX_PATHS) return `it names ${words.length} arguments, more than cairn checks one by one`;
  for (const word of words) {
    // A literal word is placed as it is (`{print $1}` is a program, not a path, and lands inside);
    // a word computed at run time ("$HOME"/.ssh/x, $(cat list)) could name a file anywhere.
    let target = word.value;
    if (!word.literal) {
      const resolved = staticPath(word.value, changesDirectory);
      if ('why' in resolved) return `names ${word.value}, which cannot be located before it runs (${resolved.why})`;
      target = resolved.path;
    } else if (changesDirectory && !target.startsWith('/') && !target.startsWith('~')) {
      continue; // relative to a directory the command changes to: the analysis has already asked
    }
    const { inside, path } = await locate(target, b);
    const added = (b.readRoots ?? []).some((root) => isInside(root, path.real) && isInside(root, path.lexical));
    if (!inside && !added) return `names ${word.value}, outside the workspace: the rule allows the program, not reading or writing anywhere`;
  }
  return undefined;
}

/**
 * The text of a script file run by `source`/`bash FILE`, so its commands are judged too; undefined when
 * it cannot be read. Only files inside the workspace that `allowed` accepts (no Read deny rule) are read:
 * reasons quote the commands found, and must not carry the text of a file the model may not read.
 */
export async function readScriptFile(target: string, b: PathBases, allowed: (real: string) => boolean): Promise<string | undefined> {
  if (unresolvable(target, false)) return undefined;
  try {
    const { path, inside } = await locate(target, b);
    if (!inside || !allowed(path.real) || !allowed(path.lexical)) return undefined;
    const info = await stat(path.real);
    if (!info.isFile() || info.size > MAX_SCRIPT_BYTES) return undefined;
    return await readFile(path.real, 'utf8');
  } catch {
    return undefined;
  }
}
