import fs from 'node:fs/promises';
import path from 'node:path';
import type { GitignoreFilter } from './gitignore.js';
import { isInside } from './paths.js';

export interface RgWalkOptions {
  /** Honour .gitignore files (the JavaScript walk's GitignoreFilter rules); false searches everything. */
  readonly useIgnore: boolean;
  readonly skipNodeModules: boolean;
  /** A file-name glob (globHint) that lets through at least every file the caller's own glob matcher accepts. */
  readonly globHint?: string;
  readonly maxDepth?: number;
  /** In the JavaScript walk's order (each directory's entries by name, depth first); costs ripgrep's threads. */
  readonly sorted: boolean;
  /** Log the symlinks passed over (ripgrep follows none) so the caller can treat them as the JavaScript walk does. */
  readonly symlinks: boolean;
}

/**
 * The arguments that make ripgrep walk the files the JavaScript walk (walk.ts) would: hidden files included,
 * .git and (when asked) node_modules skipped, .gitignore files honoured without a git repository, and no
 * other ignore source (.ignore, .rgignore, the global excludes file, info/exclude, directories above the
 * search). The ignore files of the directories between the workspace root and the search root are not seen
 * by ripgrep (`--no-ignore-parent` also keeps out everything above the workspace, as today); the caller
 * applies them with `ignoredAbove`. So ripgrep leaves out a subset of what the JavaScript walk leaves out,
 * never more, and the caller's filter makes the two equal.
 */
export function rgWalkArgs(opts: RgWalkOptions): string[] {
  const args = ['--no-config', '--no-messages', '--hidden', '--path-separator', '/'];
  if (opts.useIgnore) args.push('--no-ignore-dot', '--no-ignore-global', '--no-ignore-exclude', '--no-ignore-parent', '--no-require-git');
  else args.push('--no-ignore');
  if (opts.sorted) args.push('--sort', 'path');
  if (opts.symlinks) args.push('--debug');
  if (opts.maxDepth !== undefined) args.push('--max-depth', String(opts.maxDepth));
  if (opts.globHint !== undefined) args.push('--type-add', `cairnglob:${opts.globHint}`, '--type', 'cairnglob');
  args.push('--glob', '!.git/');
  if (opts.skipNodeModules) args.push('--glob', '!node_modules/');
  return args;
}

/** The JavaScript walk's order for `/`-separated relative paths: name by name, each compared as JavaScript strings. */
export function compareWalkOrder(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < as.length && i < bs.length; i++) {
    const x = as[i] ?? '';
    const y = bs[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return as.length - bs.length;
}

/** ripgrep's name for a file under the search root, without the `./` it puts before it. */
export function relFromRg(p: string): string {
  return p.startsWith('./') ? p.slice(2) : p;
}

// A file-name glob ripgrep reads the way glob-match.ts does: plain characters, `*`, `?` and one level of `{a,b}`.
const SIMPLE_NAME_GLOB = /^[A-Za-z0-9_.\-*?{}, ]+$/;

/**
 * A ripgrep file-name glob every file the given glob accepts also matches (the glob's last name), or undefined
 * when there is none to be sure of. It goes to ripgrep as a file type, not as `--glob`: a `--glob` would also
 * bring back files .gitignore leaves out, a type only narrows what the ignore rules let through.
 */
export function globHint(glob: string | undefined): string | undefined {
  if (glob === undefined) return undefined;
  const name = glob.slice(glob.lastIndexOf('/') + 1);
  if (!SIMPLE_NAME_GLOB.test(name) || name.includes('**') || name === '.' || name === '..') return undefined;
  // A `{...}` before the last slash may hold a slash itself (`{a,b/c}*.ts`): then the last name is not known.
  if (glob.slice(0, Math.max(0, glob.lastIndexOf('/'))).includes('{')) return undefined;
  let depth = 0;
  for (const ch of name) {
    if (ch === '{' && ++depth > 1) return undefined;
    if (ch === '}' && --depth < 0) return undefined;
  }
  return depth === 0 ? name : undefined;
}

/** How deep a glob can reach (its number of names), or undefined when `**` or a `{...}` makes it open. */
export function globDepth(glob: string): number | undefined {
  if (glob.includes('**') || /[{}\\[]/.test(glob)) return undefined;
  return glob.split('/').length;
}

/**
 * What ripgrep cannot apply: the .gitignore files of the directories from the workspace root down to the
 * search root's parent, and the root's .git/info/exclude. When there are any, the returned check tells
 * whether the JavaScript walk would have left a file out (its own or a directory's rules); undefined when
 * ripgrep's answer is already the same.
 */
export async function ignoredAbove(
  filter: GitignoreFilter,
  cwd: string,
  searchRoot: string,
): Promise<((abs: string) => Promise<boolean>) | undefined> {
  if (!isInside(cwd, searchRoot)) return undefined;
  const sources = [path.join(cwd, '.git', 'info', 'exclude')];
  for (let dir = searchRoot; dir !== cwd && isInside(cwd, dir); ) {
    dir = path.dirname(dir);
    sources.push(path.join(dir, '.gitignore'));
  }
  const texts = await Promise.all(sources.map((f) => fs.readFile(f, 'utf8').catch(() => '')));
  if (!texts.some((t) => t.split('\n').some((l) => l.trim() !== '' && !l.startsWith('#')))) return undefined;
  const dirs = new Map<string, Promise<boolean>>();
  const dirIgnored = (dir: string): Promise<boolean> => {
    let known = dirs.get(dir);
    if (!known) {
      known = dir === searchRoot || !isInside(searchRoot, dir) ? Promise.resolve(false) : dirAndParents(dir);
      dirs.set(dir, known);
    }
    return known;
  };
  const dirAndParents = async (dir: string): Promise<boolean> => (await dirIgnored(path.dirname(dir))) || filter.isIgnored(dir, true);
  return async (abs) => (await dirIgnored(path.dirname(abs))) || filter.isIgnored(abs, false);
}
