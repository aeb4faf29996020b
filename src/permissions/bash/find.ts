import type { Word } from './words.js';

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
  // Each loop reads args[i] afresh: an undefined word is the end of the arguments.
  let i = 0;
  for (let a = args[i]; a && (LEADING.test(a.value) || a.value === '-D'); a = args[i]) {
    if (a.value === '-L') facts.follows = true;
    i += a.value === '-D' ? 2 : 1;
  }
  for (let a = args[i]; a; a = args[++i]) {
    const w = a.value;
    if (w.startsWith('-') || w === '(' || w === '!' || w === ')' || w === ',') break;
    facts.starts.push(a);
  }
  if (facts.starts.length === 0) facts.starts.push({ value: '.', literal: true });
  for (let a = args[i]; a; a = args[++i]) {
    const w = a.value;
    const next = args[i + 1];
    if (EXEC.has(w)) {
      const command: Word[] = [];
      for (let c = args[++i]; c && c.value !== ';' && c.value !== '+'; c = args[++i]) command.push(c);
      facts.commands.push(command);
    } else if (w === '-delete') facts.deletes = true;
    else if (w === '-follow') facts.follows = true;
    else if (WRITE_ACTIONS.has(w) && next) {
      facts.writes.push(next);
      i++;
    } else if ((READ_TESTS.has(w) || /^-newer[aBcmt][aBcmt]$/.test(w)) && next) {
      facts.reads.push(next);
      i++;
    }
  }
  return facts;
}
