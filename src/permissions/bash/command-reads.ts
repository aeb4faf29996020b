import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { isInside } from '../paths.js';
import { GLOB, locate, MAX_PATHS, staticPath } from './command-paths.js';
import { isBarePattern, matchPathSpecifier, ruleCoversTool } from '../rules/match.js';
import type { PathBases } from '../rules/match.js';
import type { ParsedRule } from '../rules/parse.js';

const READ_PROBE = { name: 'read_file', kind: 'read' as const };
// Programs that list names or sizes without printing what is in the files.
const LISTS_ONLY = new Set(['ls', 'find', 'du', 'tree', 'stat', 'df', 'realpath', 'readlink', 'basename', 'dirname', 'file']);

export interface ReadTarget {
  target: string;
  program?: string;
}

/** The directory a Read rule's pattern starts from (`./secrets/**` -> <ws>/secrets), or undefined for patterns that reach any depth (`**` first, or a bare `.env`). */
export function ruleRoot(specifier: string, b: PathBases): string | undefined {
  let base = b.workspace;
  let pattern = specifier;
  if (specifier === '~' || specifier.startsWith('~/')) [base, pattern] = [b.home, specifier.slice(2)];
  else if (specifier.startsWith('/')) [base, pattern] = ['/', specifier.replace(/^\/+/, '')];
  else if (specifier.startsWith('./')) pattern = specifier.slice(2);
  const segments = pattern.split('/');
  // `**/x`, and a bare name or glob (`.env`, `*.pem`), which matches at any depth.
  if (segments[0] === '**' || (isBarePattern(specifier) && segments.filter((s) => s !== '').length === 1)) return undefined;
  const firstGlob = segments.findIndex((s) => /[*?[{]/.test(s));
  return join(base, ...(firstGlob < 0 ? segments : segments.slice(0, firstGlob)));
}

/** Whether a read of `area` (a directory, or a glob's directory) can take in the denied root. */
function covers(area: string, root: string | undefined, glob: string | undefined): boolean {
  if (root === undefined) return true;
  if (!isInside(area, root)) return false;
  if (glob === undefined) return true;
  // The pattern's segments must be able to match the way down to the denied root (dot names only by a dot segment).
  const down = relative(area, root).split(sep).filter((s) => s !== '');
  const pattern = glob.split('/');
  const rest = pattern.slice(pattern.findIndex((s) => GLOB.test(s)));
  return (
    !isAbsolute(relative(area, root)) &&
    down.every((name, i) => {
      const seg = rest[i];
      return seg === undefined || picomatch(seg, { dot: seg.startsWith('.') })(name);
    })
  );
}

/**
 * Read deny rules (`Read(./.env)`) hold for bash too: a path argument they match denies the command,
 * and so does a directory or pattern read by a program that prints file contents (`grep -r x .`,
 * `cat sec*`/key) when a denied path lies inside it.
 */
export async function deniedRead(reads: readonly ReadTarget[], deny: readonly ParsedRule[], b: PathBases): Promise<string | undefined> {
  const rules = deny.filter((r): r is ParsedRule & { specifier: string } => r.specifier !== undefined && ruleCoversTool(r, READ_PROBE));
  if (rules.length === 0) return undefined;
  if (reads.length > MAX_PATHS) return `it reads ${reads.length} paths while Read deny rules are in force, more than cairn checks one by one`;
  for (const { target, program } of reads) {
    const resolved = staticPath(target, false);
    const lists = program !== undefined && LISTS_ONLY.has(program);
    if ('why' in resolved) {
      if (lists) continue;
      return `reads ${target}, which cairn cannot resolve (${resolved.why}), while Read deny rules are in force`;
    }
    const { path } = await locate(resolved.path, b);
    const glob = GLOB.test(target) ? target : undefined;
    const exact = glob === undefined ? rules.find((r) => matchPathSpecifier(r.specifier, path.real, b) || matchPathSpecifier(r.specifier, path.lexical, b)) : undefined;
    if (exact) return `reads ${target}: denied by rule ${exact.text}`;
    if (lists) continue;
    const inside = rules.find((r) => covers(path.lexical, ruleRoot(r.specifier, b), glob) || covers(path.real, ruleRoot(r.specifier, b), glob));
    if (inside && (glob !== undefined || (await isDirectory(path.real)))) return `reads ${target}, which holds files denied by rule ${inside.text}`;
  }
  return undefined;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
