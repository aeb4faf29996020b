// `cd sub && npm run lint`: Claude Code runs it under `Bash(npm run lint)` when `sub` is a folder
// in the workspace. cairn does too, for that shape only: the command's first simple command is a
// plain `cd` to one literal word, every operator after it at the top is `&&` (so nothing runs
// unless the cd succeeded, and everything runs in that folder), and the folder is the same inside
// the workspace read lexically and through symbolic links. The rest is then judged from there.
// CDPATH cannot move the cd elsewhere: the commands cairn runs get no CDPATH (src/tools/bash.ts).
import { realpath, stat } from 'node:fs/promises';
import { parseBash, type SyntaxNode } from './parser.js';
import { isInside, resolveToolPath } from '../paths.js';
import type { PathBases } from '../rules/match.js';

export interface CdPrelude {
  /** The folder as written. */
  target: string;
  /** Where the rest runs: the folder, absolute. */
  dir: string;
  /** The commands after `cd <folder> &&`. */
  rest: string;
}

// One word bash reads as itself: no expansion, pattern, quote, tilde or option.
const PLAIN_WORD = /^[A-Za-z0-9_.@%+,:=][A-Za-z0-9_.@%+,:=/-]*$/;

/** The operands of a top-level `a && b && c` chain, left to right; undefined for any other shape. */
function andChain(node: SyntaxNode): SyntaxNode[] | undefined {
  if (node.type !== 'list') return [node];
  const [left, op, right, ...more] = node.children;
  if (!left || !right || op?.type !== '&&' || more.length > 0) return undefined;
  const head = andChain(left);
  return head ? [...head, right] : undefined;
}

/** The `cd` prelude of a command, or undefined when the command is not of that shape or the folder is not plainly inside the workspace. */
export async function cdPrelude(command: string, b: PathBases): Promise<CdPrelude | undefined> {
  const tree = await parseBash(command);
  let target: string | undefined;
  let rest: string[];
  try {
    const root = tree.rootNode;
    const [statement, ...others] = root.children;
    if (root.hasError || !statement || others.length > 0) return undefined;
    const chain = andChain(statement);
    const [cd, ...after] = chain ?? [];
    if (!cd || after.length === 0 || cd.type !== 'command') return undefined;
    const [name, word, ...extra] = cd.namedChildren;
    if (name?.type !== 'command_name' || name.text !== 'cd' || word?.type !== 'word' || extra.length > 0 || !PLAIN_WORD.test(word.text)) return undefined;
    target = word.text;
    rest = after.map((n) => n.text);
  } finally {
    tree.delete();
  }
  // Only when the command says nothing more than the chain (no heredoc, comment or continuation the texts leave out).
  const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();
  if (flat(command) !== flat([`cd ${target}`, ...rest].join(' && '))) return undefined;
  const place = await resolveToolPath(target, b.cwd ?? b.workspace, b.home);
  if (!isInside(b.workspace, place.lexical) || !isInside(b.workspace, place.real)) return undefined;
  try {
    if (!(await stat(place.real)).isDirectory() || (await realpath(place.lexical)) !== place.real) return undefined;
  } catch {
    return undefined; // no such folder: the cd would fail
  }
  return { target, dir: place.lexical, rest: rest.join(' && ') };
}
