import type { Word } from './bash-words.js';

/** What a `find` command does besides listing: commands it runs, files it deletes or writes. */
export interface FindFacts {
  /** The start points: what find reads (and, with -delete, removes). */
  starts: Word[];
  /** Commands run by -exec, -execdir, -ok and -okdir, without the terminating `;` or `+`. */
  commands: Word[][];
  /** Set when -delete removes what matches. */
  deletes: boolean;
  /** Files written by -fprint, -fprint0, -fprintf and -fls. */
  writes: Word[];
  /** Paths read by tests that take a file (-newer F, -samefile F). */
  reads: Word[];
  /** -L or -follow: symlinks are followed, out of the workspace too. */
  follows: boolean;
}

const EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const WRITE_ACTIONS = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);
const READ_TESTS = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from']);
// Options before the start points (`find -L .`, `find -O2 .`, `find -D tree .`).
const LEADING = /^-(H|L|P|O\d*)$/;

export function findFacts(args: readonly Word[]): FindFacts {
  const facts: FindFacts = { starts: [], commands: [], deletes: false, writes: [], reads: [], follows: false };
  let i = 0;
  while (i < args.length && (LEADING.test(args[i]!.value) || args[i]!.value === '-D')) {
    if (args[i]!.value === '-L') facts.follows = true;
    i += args[i]!.value === '-D' ? 2 : 1;
  }
  for (; i < args.length; i++) {
    const w = args[i]!.value;
    if (w.startsWith('-') || w === '(' || w === '!' || w === ')' || w === ',') break;
    facts.starts.push(args[i]!);
  }
  if (facts.starts.length === 0) facts.starts.push({ value: '.', literal: true });
  for (; i < args.length; i++) {
    const w = args[i]!.value;
    if (EXEC.has(w)) {
      const command: Word[] = [];
      for (i += 1; i < args.length && args[i]!.value !== ';' && args[i]!.value !== '+'; i++) command.push(args[i]!);
      facts.commands.push(command);
    } else if (w === '-delete') facts.deletes = true;
    else if (w === '-follow') facts.follows = true;
    else if (WRITE_ACTIONS.has(w) && args[i + 1]) facts.writes.push(args[++i]!);
    else if (READ_TESTS.has(w) && args[i + 1]) facts.reads.push(args[++i]!);
    else if (/^-newer[aBcmt][aBcmt]$/.test(w) && args[i + 1]) facts.reads.push(args[++i]!);
  }
  return facts;
}
