import type { Word } from './words.js';
import { itemAt } from '../../util/invariant.js';

/**
 * The options each read-only program is known to take without writing or running anything: an
 * allowlist. Anything else (an unknown option, a GNU-style abbreviation of a known one, a short option
 * bundled with one that is not known) makes the command not read-only, so it is asked about.
 *
 * Written as words: `-n` a flag, `-n=` takes a value (the next word, `-n5`, `--lines=5`), `-f@` takes a
 * path it reads, `--color?` an optional value only given as `--color=x` (or `-Ix` for a short one),
 * `--arg==` two values.
 */
export type OptionKind = 'flag' | 'value' | 'path' | 'optional' | 'two';

export interface OptionTable {
  options: ReadonlyMap<string, OptionKind>;
  /** `-5` is a count (head, tail, grep, git log). */
  numeric?: boolean;
  /** Single-dash words are whole options, never bundles (xxd's `-cols`). */
  noBundle?: boolean;
  /** Options end at the first positional, as in bash builtins (`printf FORMAT -x` prints `-x`). */
  stopAtPositional?: boolean;
  /** No option makes it write, run or follow anything: a word computed at run time stands as a path (which is checked). */
  computedOk?: boolean;
}

const KINDS: Record<string, OptionKind> = { '': 'flag', '=': 'value', '@': 'path', '?': 'optional', '==': 'two' };

/** Builds an option table from its words (see above); `extra` adds the table's settings. */
export function options(words: string, extra: Omit<OptionTable, 'options'> = {}): OptionTable {
  const map = new Map<string, OptionKind>();
  for (const w of words.split(/\s+/).filter(Boolean)) {
    const m = /^(-[^=@?]*?)(==|=|@|\?)?$/.exec(w);
    const name = m?.[1];
    const kind = KINDS[m?.[2] ?? ''];
    if (name === undefined || kind === undefined) throw new Error(`bad option spec ${w}`);
    map.set(name, kind);
  }
  return { ...extra, options: map };
}

/** The same table with more options. */
export function withOptions(table: OptionTable, words: string): OptionTable {
  return { ...table, options: new Map([...table.options, ...options(words).options]) };
}

export interface Scan {
  /** Every option was known and every computed word harmless. */
  known: boolean;
  /** Words that are not options or their values, in order. */
  positionals: Word[];
  /** Values of path options: files the program reads. */
  reads: Word[];
  /** The options given, by the name in the table (`-rn` gives `-r` and `-n`). */
  seen: Set<string>;
}

/** A glob that starts with literal text other than `-` expands only to words that start the same way: never an option. */
function cannotBeOption(w: Word): boolean {
  return w.glob === true && /^[A-Za-z0-9_./~]/.test(w.value);
}

/** `--include=*.ts`: a glob after a spelled-out `--name=` expands only to that option with other values. */
function globOption(w: Word): boolean {
  return w.glob === true && /^--[A-Za-z0-9-]+=/.test(w.value) && !/[*?[{]/.test(w.value.slice(0, w.value.indexOf('=')));
}

/**
 * Reads `args` against `table`. An option the table does not list exactly, or a word computed at run
 * time where an option could stand (bash may split it into several words), leaves `known` false.
 */
export function scanOptions(table: OptionTable, args: readonly Word[]): Scan {
  const scan: Scan = { known: true, positionals: [], reads: [], seen: new Set() };
  const unknown = (): void => void (scan.known = false);
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const given = itemAt(args, i, 'argument');
    const a = globOption(given) ? { ...given, literal: true } : given;
    const w = a.value;
    // Take the value of an option: attached (`-n5`, `--lines=5`) or the next word.
    const take = (kind: OptionKind, attached: string | undefined): void => {
      const values: Word[] = [];
      if (kind === 'optional' || kind === 'flag') {
        if (attached !== undefined && kind === 'flag') unknown();
        return;
      }
      if (attached !== undefined) values.push({ ...a, value: attached });
      const wanted = (kind === 'two' ? 2 : 1) - values.length;
      for (let k = 0; k < wanted; k++) {
        const next = args[i + 1];
        if (!next) break;
        values.push(next);
        i++;
      }
      // An unquoted computed value can split into more words: an option, or a path nobody checked.
      if (values.some((v) => !v.literal && !cannotBeOption(v))) unknown();
      if (kind === 'path') scan.reads.push(...values);
    };
    if (!a.literal && !table.computedOk && !cannotBeOption(a) && !done) {
      unknown(); // a computed word could be any option
      scan.positionals.push(a);
      continue;
    }
    if (done || !w.startsWith('-') || w === '-') {
      scan.positionals.push(a);
      if (table.stopAtPositional) done = true;
      continue;
    }
    if (w === '--') {
      done = true;
      continue;
    }
    if (table.numeric && /^-\d+$/.test(w)) continue;
    const eq = w.indexOf('=');
    const long = w.startsWith('--') || table.noBundle;
    const name = long && eq > 0 ? w.slice(0, eq) : w;
    const exact = table.options.get(name);
    if (exact !== undefined) {
      scan.seen.add(name);
      take(exact, eq > 0 && long ? w.slice(eq + 1) : undefined);
      continue;
    }
    if (long) {
      // xxd-style: `-c8` is `-c 8`; anything else is an option cairn does not know.
      const short = table.noBundle && !w.startsWith('--') ? table.options.get(w.slice(0, 2)) : undefined;
      if (short === 'value' || short === 'path' || short === 'optional') {
        scan.seen.add(w.slice(0, 2));
        take(short, w.slice(2));
      } else unknown();
      continue;
    }
    // A bundle of short options: each a known flag, until one that takes the rest of the word as its value.
    for (let j = 1; j < w.length; j++) {
      const flag = `-${w.charAt(j)}`;
      const kind = table.options.get(flag);
      if (kind === undefined) {
        unknown();
        break;
      }
      scan.seen.add(flag);
      if (kind !== 'flag') {
        const rest = w.slice(j + 1);
        take(kind, rest === '' ? undefined : rest);
        break;
      }
    }
  }
  return scan;
}
