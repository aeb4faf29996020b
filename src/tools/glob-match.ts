import { expandBraces, GlobSyntaxError, parseSegments, type CharTest, type Item, type Segment } from './glob-parse.js';
import { itemAt } from '../util/invariant.js';

export { GlobSyntaxError } from './glob-parse.js';

/** Where a match can be after some prefix of a path: a set of live automaton states, with its known moves. */
export interface GlobStates {
  readonly states: readonly number[];
  readonly accepting: boolean;
  /** Moves already worked out, by character code: most paths repeat characters and prefixes. */
  readonly next: Map<number, GlobStates>;
}

/** Distinct state sets remembered per pattern; past this, moves are computed each time (still linear). */
const MAX_REMEMBERED = 4096;

/**
 * A glob compiled to a finite automaton and run by keeping the set of live states, so a match costs
 * O(path x pattern) whatever the input. picomatch compiles globs to backtracking regexes: `*a*a*a*a*b`
 * against a 255-character name took 39 s and `**\/a/**\/a/**\/b` against a 4,000-character path 4 s.
 */
export interface GlobMatcher {
  /** Whether a whole relative `/`-separated path matches. */
  match(path: string): boolean;
  /** The states before any input; `advance` feeds text; `accepts` and `alive` read the result (for pruning a crawl). */
  initial(): GlobStates;
  advance(states: GlobStates, text: string): GlobStates;
  accepts(states: GlobStates): boolean;
  alive(states: GlobStates): boolean;
}

const SLASH = 47;
// What a state does: test one character, branch without input, or accept.
const Kind = { Char: 0, Split: 1, Match: 2 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];
/** A character test on a state: a CharTest, or any character at all (inside `**`). */
type Test = CharTest | { kind: 'all' };

function passes(test: Test, c: number): boolean {
  switch (test.kind) {
    case 'lit':
      return c === test.code;
    case 'all':
      return true;
    case 'any':
      return c !== SLASH;
    case 'class': {
      if (c === SLASH) return false;
      const inside = test.ranges.some(([lo, hi]) => c >= lo && c <= hi);
      return inside !== test.negated;
    }
  }
}

class Automaton {
  readonly kind: Kind[] = [];
  readonly out1: number[] = [];
  readonly out2: number[] = [];
  readonly test: (Test | undefined)[] = [];
  readonly match = this.add(Kind.Match, -1, -1);

  add(kind: Kind, a: number, b: number, test?: Test): number {
    this.kind.push(kind);
    this.out1.push(a);
    this.out2.push(b);
    this.test.push(test);
    return this.kind.length - 1;
  }

  char(test: Test, next: number): number {
    return this.add(Kind.Char, next, -1, test);
  }

  /** `test*` then next: a split whose first branch loops back to it. */
  loop(test: Test, next: number): number {
    const split = this.add(Kind.Split, -1, next);
    this.out1[split] = this.char(test, split);
    return split;
  }

  /** Builds one brace-free pattern back to front, so each piece knows where it continues. */
  build(segments: Segment[]): number {
    let next = this.match;
    const last = segments.length - 1;
    for (let i = last; i >= 0; i--) {
      const seg = itemAt(segments, i, 'glob segment');
      const following = segments[i + 1];
      // The `/` between two segments belongs to a globstar next to it: `**/x` may match `x`, `a/**` may match `a`.
      if (i < last && seg.kind !== 'globstar' && !(following?.kind === 'globstar' && i + 1 === last)) {
        next = this.char({ kind: 'lit', code: SLASH }, next);
      }
      if (seg.kind === 'globstar') {
        if (last === 0) next = this.loop({ kind: 'all' }, next);
        else if (i === last) next = this.add(Kind.Split, this.char({ kind: 'lit', code: SLASH }, this.loop({ kind: 'all' }, next)), next);
        else next = this.add(Kind.Split, this.loop({ kind: 'all' }, this.char({ kind: 'lit', code: SLASH }, next)), next);
        continue;
      }
      next = this.items(seg.items, next);
    }
    return next;
  }

  private items(items: readonly Item[], next: number): number {
    for (let k = items.length - 1; k >= 0; k--) {
      const item = itemAt(items, k, 'glob item');
      if (item.kind === 'star') next = this.loop({ kind: 'any' }, next);
      else if (item.kind === 'alt') {
        // Each option leads to the same continuation; splits choose between them without copying what follows.
        const starts = item.options.map((option) => this.items(option, next));
        next = starts.reduceRight((rest, start) => this.add(Kind.Split, start, rest));
      } else next = this.char(item, next);
    }
    return next;
  }
}

/** Compiles a glob (relative to whatever it is matched against). Throws GlobSyntaxError for unsupported syntax. */
export function compileGlob(pattern: string): GlobMatcher {
  const nfa = new Automaton();
  // A leading `./` means "here", as in picomatch.
  const starts = expandBraces(pattern.replace(/^(\.\/)+/, '')).map((alt) => nfa.build(parseSegments(alt)));
  const size = nfa.kind.length;
  const seen = new Uint32Array(size);
  let generation = 0;

  /** Adds a state and everything reachable from it without input, each once per generation. */
  const close = (from: readonly number[]): number[] => {
    generation++;
    const out: number[] = [];
    const stack = [...from];
    for (let s = stack.pop(); s !== undefined; s = stack.pop()) {
      if (seen[s] === generation) continue;
      seen[s] = generation;
      const kind = nfa.kind[s];
      if (kind === Kind.Split) stack.push(itemAt(nfa.out2, s, 'glob state'), itemAt(nfa.out1, s, 'glob state'));
      else out.push(s);
    }
    return out;
  };
  // Each distinct set is made once, so the moves cached on it are shared by every path that reaches it.
  const remembered = new Map<string, GlobStates>();
  const intern = (states: number[]): GlobStates => {
    states.sort((x, y) => x - y);
    const key = states.join(',');
    const known = remembered.get(key);
    if (known) return known;
    const made: GlobStates = { states, accepting: states.includes(nfa.match), next: new Map() };
    if (remembered.size < MAX_REMEMBERED) remembered.set(key, made);
    return made;
  };
  const first = intern(close(starts));
  const dead = intern([]);

  const step = (from: GlobStates, c: number): GlobStates => {
    const cached = from.next.get(c);
    if (cached) return cached;
    const moved: number[] = [];
    for (const s of from.states) {
      if (nfa.kind[s] !== Kind.Char) continue;
      const test = nfa.test[s];
      if (test === undefined) throw new Error(`glob state ${s} tests no character`);
      if (passes(test, c)) moved.push(itemAt(nfa.out1, s, 'glob state'));
    }
    const to = moved.length === 0 ? dead : intern(close(moved));
    if (from.next.size < 256) from.next.set(c, to);
    return to;
  };
  const advance = (states: GlobStates, text: string): GlobStates => {
    let current = states;
    for (let i = 0; i < text.length && current.states.length > 0; i++) current = step(current, text.charCodeAt(i));
    return current;
  };

  return {
    match: (path) => advance(first, path).accepting,
    initial: () => first,
    advance,
    accepts: (states) => states.accepting,
    alive: (states) => states.states.length > 0,
  };
}

/** compileGlob, or the reason the pattern cannot be used, for tools to hand back to the model. */
export function tryCompileGlob(pattern: string): GlobMatcher | { error: string } {
  try {
    return compileGlob(pattern);
  } catch (err) {
    if (err instanceof GlobSyntaxError) return { error: `Unsupported glob pattern ${JSON.stringify(pattern)}: ${err.message}.` };
    throw err;
  }
}
