import { gitFacts } from './readonly-git.js';
import { scanOptions } from './readonly-options.js';
import { READ_SPECS } from './readonly-programs.js';
import type { Word } from './words.js';

/** What a program's arguments say about what it reads, and whether that is all it does. */
export interface ReadFacts {
  /** The program only reads and prints: no writes, no programs run, no settings changed. */
  readOnly: boolean;
  /** Path arguments it reads (files or directories). */
  reads: Word[];
}

const RECURSIVE = /^(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dereference-recursive)$/;

/**
 * What a program (already looked through its wrappers) reads, and whether reading is all it does.
 * Read-only means every option is one its table lists (readonly-programs.ts, readonly-git.ts):
 * an option cairn does not know, an abbreviation included, is a command to ask about.
 */
export function readFacts(name: string, args: readonly Word[]): ReadFacts {
  if (name === 'git') return gitFacts(args);
  const spec = READ_SPECS[name];
  if (!spec) return { readOnly: false, reads: [] };
  if (spec.anything) return { readOnly: true, reads: [] };
  const scan = scanOptions(spec, args);
  const reads = [...scan.reads];
  const replaced = spec.skipReplacedBy?.some((f) => scan.seen.has(f)) ?? false;
  const paths = scan.positionals.slice(replaced ? 0 : (spec.skip ?? 0));
  let readOnly = scan.known;
  // `grep -r x` and `rg x` with no path search the current directory.
  const recursive = name === 'rg' || args.some((a) => RECURSIVE.test(a.value));
  if (paths.length === 0 && recursive && (name === 'rg' || spec === READ_SPECS['grep'])) reads.push({ value: '.', literal: true });
  if (spec.noPositionals && scan.positionals.length > 0) readOnly = false;
  if (spec.positional && !scan.positionals.every((p) => p.literal && spec.positional?.test(p.value))) readOnly = false;
  if (spec.maxPaths !== undefined && paths.length > spec.maxPaths) readOnly = false;
  if (!spec.noPaths) reads.push(...paths.slice(0, spec.maxPaths ?? paths.length));
  return { readOnly, reads };
}
