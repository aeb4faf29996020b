import type { Word } from './bash-words.js';
import { itemAt } from '../util/invariant.js';

/** What a program's arguments say about what it reads, and whether that is all it does. */
export interface ReadFacts {
  /** The program only reads and prints: no writes, no programs run, no settings changed. */
  readOnly: boolean;
  /** Path arguments it reads (files or directories). */
  reads: Word[];
}

interface ReadSpec {
  /** Options that take the next word as a value that is not a path. */
  value?: string[];
  /** Options whose value is a path the program reads. */
  pathValue?: string[];
  /** Leading positional words that are not paths (grep's pattern, jq's filter). */
  skip?: number;
  /** Options that replace the skipped positional (`grep -e PAT`, `jq -f FILE`). */
  skipReplacedBy?: string[];
  /** No argument is a path (echo, which, tr). */
  noPaths?: boolean;
  /** Options that make the program do more than read. */
  notReadOnly?: RegExp;
  /** At most this many positionals are read; one more is written (uniq IN OUT, xxd IN OUT). */
  maxPaths?: number;
  /** Any positional argument at all makes it change something (`hostname NAME`). */
  noPositionals?: boolean;
}

const PLAIN: ReadSpec = {};
const NO_PATHS: ReadSpec = { noPaths: true };
const GREP: ReadSpec = {
  value: ['-e', '--regexp', '-m', '--max-count', '-A', '-B', '-C', '--after-context', '--before-context', '--context', '--include', '--exclude', '--exclude-dir', '--label', '-d', '-D', '--binary-files', '--devices', '--directories', '--color', '--colour'],
  pathValue: ['-f', '--file', '--exclude-from'],
  skip: 1,
  skipReplacedBy: ['-e', '--regexp', '-f', '--file'],
  // Following symlinks can carry a recursive read out of the workspace.
  notReadOnly: /^(-[a-zA-Z]*R[a-zA-Z]*|--dereference-recursive)$/,
};
const RG: ReadSpec = {
  value: ['-e', '--regexp', '-g', '--glob', '--iglob', '-t', '--type', '-T', '--type-not', '--type-add', '--type-clear', '-m', '--max-count', '-A', '-B', '-C', '--after-context', '--before-context', '--context', '-M', '--max-columns', '-j', '--threads', '--max-depth', '-d', '--sort', '--sortr', '-r', '--replace', '--color', '--colors', '--path-separator', '-E', '--encoding', '--engine', '--max-filesize', '--context-separator', '--field-match-separator', '--field-context-separator', '--dfa-size-limit', '--regex-size-limit'],
  pathValue: ['-f', '--file', '--ignore-file'],
  skip: 1,
  skipReplacedBy: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'],
  notReadOnly: /^(--pre(-glob)?|--hostname-bin|-L|--follow)$/,
};
const SUMS: ReadSpec = { value: [] };

const SPECS: Record<string, ReadSpec> = {
  ls: { value: ['-I', '--ignore', '-w', '--width', '-T', '--tabsize', '--hide', '--format', '--sort', '--time', '--time-style', '--block-size', '--quoting-style', '--indicator-style'] },
  cat: PLAIN, tac: PLAIN, rev: PLAIN, nl: { value: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w'] },
  head: { value: ['-n', '-c', '--lines', '--bytes'] },
  tail: { value: ['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid', '--max-unchanged-stats'] },
  wc: { pathValue: ['--files0-from'] },
  grep: GREP, egrep: GREP, fgrep: GREP, rg: RG,
  pwd: NO_PATHS, echo: NO_PATHS, true: NO_PATHS, false: NO_PATHS, ':': NO_PATHS, which: NO_PATHS, whereis: NO_PATHS, type: NO_PATHS,
  printf: { noPaths: true, notReadOnly: /^-v/ },
  whoami: NO_PATHS, id: NO_PATHS, uname: NO_PATHS, nproc: NO_PATHS, arch: NO_PATHS, tty: NO_PATHS, locale: NO_PATHS, groups: NO_PATHS,
  users: NO_PATHS, uptime: NO_PATHS, seq: NO_PATHS, tr: NO_PATHS, test: NO_PATHS, '[': NO_PATHS, basename: NO_PATHS, dirname: NO_PATHS,
  printenv: NO_PATHS, env: NO_PATHS, sleep: NO_PATHS, getconf: NO_PATHS,
  hostname: { noPaths: true, noPositionals: true, notReadOnly: /^(-F|--file|-b|--boot)$/ },
  date: { noPaths: true, value: ['-d', '--date', '-I', '--iso-8601'], pathValue: ['-f', '--file', '-r', '--reference'], notReadOnly: /^(-s|--set)/ },
  realpath: { value: ['--relative-to', '--relative-base'] }, readlink: PLAIN,
  file: { value: ['-e', '--exclude', '-F', '--separator', '-P', '--parameter'], pathValue: ['-m', '--magic-file', '-f', '--files-from'], notReadOnly: /^(-C|--compile)$/ },
  stat: { value: ['-c', '--format', '--printf'] },
  du: { value: ['-d', '--max-depth', '-B', '--block-size', '-t', '--threshold', '--exclude', '--time-style'], pathValue: ['-X', '--exclude-from', '--files0-from'], notReadOnly: /^(-L|--dereference)$/ },
  df: { value: ['-B', '--block-size', '-t', '--type', '-x', '--exclude-type', '--output'] },
  diff: { value: ['-U', '-C', '--label', '-L', '-I', '--ignore-matching-lines', '-x', '--exclude', '-F', '--show-function-line', '--color', '--palette', '-W', '--width', '--tabsize', '--horizon-lines', '--line-format', '--old-line-format', '--new-line-format', '--unchanged-line-format', '--changed-group-format', '--old-group-format', '--new-group-format', '--unchanged-group-format', '-D', '--ifdef'], pathValue: ['-X', '--exclude-from', '--from-file', '--to-file'], notReadOnly: /^--diff-program/ },
  cmp: { value: ['-i', '--ignore-initial', '-n', '--bytes'] }, comm: PLAIN,
  sort: { value: ['-k', '--key', '-t', '--field-separator', '-S', '--buffer-size', '-T', '--temporary-directory', '--parallel', '--batch-size', '--sort'], pathValue: ['--files0-from', '--random-source'], notReadOnly: /^(-o|--output|--compress-program)/ },
  uniq: { value: ['-f', '--skip-fields', '-s', '--skip-chars', '-w', '--check-chars'], maxPaths: 1 },
  cut: { value: ['-b', '--bytes', '-c', '--characters', '-f', '--fields', '-d', '--delimiter', '--output-delimiter'] },
  jq: { value: ['--indent', '--arg', '--argjson', '-L'], pathValue: ['-f', '--from-file'], skip: 1, skipReplacedBy: ['-f', '--from-file'], notReadOnly: /^(--args|--jsonargs|--rawfile|--slurpfile)$/ },
  tree: { value: ['-L', '-P', '-I', '--filelimit', '--charset', '--timefmt', '--sort'], notReadOnly: /^(-o|--fromfile|-l)/ },
  md5sum: SUMS, sha1sum: SUMS, sha224sum: SUMS, sha256sum: SUMS, sha384sum: SUMS, sha512sum: SUMS, b2sum: SUMS, cksum: SUMS, shasum: { value: ['-a', '--algorithm'] },
  od: { value: ['-A', '-j', '-N', '-t', '-w', '--address-radix', '--skip-bytes', '--read-bytes', '--format', '--width'] },
  hexdump: { value: ['-n', '-s', '-e'], pathValue: ['-f'] },
  xxd: { value: ['-c', '-g', '-l', '-s', '-o', '-n', '-C', '-cols', '-len', '-seek'], maxPaths: 1, notReadOnly: /^-r/ },
  column: { value: ['-s', '-c', '-t', '-o', '-N', '-R', '-H', '-O', '-E', '-W', '-d', '--table-columns', '--separator', '--output-separator'] },
  fold: { value: ['-w', '--width'] }, fmt: { value: ['-w', '--width', '-p', '--prefix', '-g', '--goal'] }, paste: { value: ['-d', '--delimiters'] },
  expand: { value: ['-t', '--tabs'] }, unexpand: { value: ['-t', '--tabs'] }, strings: { value: ['-n', '-t', '-e', '--bytes', '--radix', '--encoding'] },
};

// git subcommands that only read, with options that would make them do more.
const GIT_READ: Record<string, RegExp | null> = {
  status: null, diff: /^(--output|--ext-diff|--textconv)$/, log: /^(--output|--ext-diff|--textconv)$/, show: /^(--output|--ext-diff|--textconv)$/,
  'rev-parse': null, 'ls-files': null, blame: /^--textconv$/, describe: null, shortlog: null, 'ls-tree': null, 'show-ref': null,
  'merge-base': null, 'name-rev': null, 'count-objects': null, 'for-each-ref': null, 'rev-list': null, 'cat-file': /^(--textconv|--filters)$/,
  grep: /^(-O.*|--open-files-in-pager)$/, 'check-ignore': null, 'check-attr': null, whatchanged: /^(--output|--ext-diff|--textconv)$/,
};
// Forms of branch/tag/remote/config/stash/worktree/reflog that only list.
const GIT_LIST: Record<string, RegExp> = {
  branch: /^(-a|--all|-r|--remotes|-v|-vv|--verbose|-l|--list|--show-current|--merged|--no-merged|--contains|--no-contains|--points-at|--sort=.*|--format=.*|--color.*|--no-color|--column.*|--no-column|-i|--ignore-case)$/,
  tag: /^(-l|--list|-n\d*|--sort=.*|--format=.*|--contains|--no-contains|--merged|--no-merged|--points-at|--color.*|--column.*|-i|--ignore-case)$/,
  remote: /^(-v|--verbose|show|get-url)$/,
  config: /^(--get|--get-all|--get-regexp|-l|--list|--show-origin|--show-scope|--null|-z|--name-only|--type=.*|--global|--local|--system|--includes|--default)$/,
  stash: /^(list|show)$/,
  worktree: /^list$/,
  reflog: /^(show)$/,
};

function optionName(w: string): string {
  const eq = w.indexOf('=');
  return eq > 0 && w.startsWith('--') ? w.slice(0, eq) : w;
}

function gitFacts(args: readonly Word[]): ReadFacts {
  let i = 0;
  while (/^(--no-pager|-P|--no-optional-locks|--no-replace-objects|--literal-pathspecs|--glob-pathspecs|--noglob-pathspecs|--icase-pathspecs)$/.test(args[i]?.value ?? '')) i += 1;
  const sub = args[i]?.value ?? '';
  const rest = args.slice(i + 1);
  const reads: Word[] = [];
  const noIndex = rest.some((a) => a.value === '--no-index');
  // Options whose value is a file git reads: blame --contents F and -S F, diff -O F.
  rest.forEach((a, j) => {
    const next = rest[j + 1];
    if ((a.value === '--contents' || (a.value === '-S' && sub === 'blame')) && next) reads.push(next);
    else if (a.value.startsWith('--contents=')) reads.push({ ...a, value: a.value.slice(11) });
    else if (/^-O./.test(a.value) && sub !== 'grep') reads.push({ ...a, value: a.value.slice(2) });
    else if (noIndex && !a.value.startsWith('-')) reads.push(a);
  });
  if (sub in GIT_READ) {
    const bad = GIT_READ[sub];
    return { readOnly: !bad || !rest.some((a) => bad.test(optionName(a.value))), reads };
  }
  const list = GIT_LIST[sub];
  if (list) {
    // `git config --get x`, `git branch --list 'fix*'`: a value after a listing option is a pattern, not a change.
    const listing = rest.some((a) => /^(--get.*|-l|--list|show|get-url|list)$/.test(a.value));
    const onlyListing = rest.every((a) => list.test(a.value) || (listing && !a.value.startsWith('-')));
    return { readOnly: onlyListing && (sub !== 'config' || listing), reads };
  }
  return { readOnly: false, reads };
}

/** What a program (already looked through its wrappers) reads, and whether reading is all it does. */
export function readFacts(name: string, args: readonly Word[]): ReadFacts {
  if (name === 'git') return gitFacts(args);
  const spec = SPECS[name];
  if (!spec) return { readOnly: false, reads: [] };
  const reads: Word[] = [];
  const positionals: Word[] = [];
  let readOnly = true;
  let skip = spec.skip ?? 0;
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const a = itemAt(args, i, 'argument');
    const w = a.value;
    if (optionsDone || !w.startsWith('-') || w === '-') {
      positionals.push(a);
      continue;
    }
    if (w === '--') {
      optionsDone = true;
      continue;
    }
    const flag = optionName(w);
    if (spec.notReadOnly?.test(w) || spec.notReadOnly?.test(flag)) readOnly = false;
    if (spec.skipReplacedBy?.some((f) => flag === f || (f.length === 2 && !w.startsWith('--') && w.startsWith(f)))) skip = 0;
    const inlineValue = flag !== w ? w.slice(flag.length + 1) : undefined;
    if (spec.pathValue?.includes(flag)) {
      if (inlineValue !== undefined) reads.push({ ...a, value: inlineValue });
      else {
        const next = args[i + 1];
        if (next) {
          reads.push(next);
          i++;
        }
      }
    } else if (spec.value?.includes(flag) && inlineValue === undefined) {
      i += 1;
    } else if (!a.literal) {
      readOnly = false; // an option computed at run time could be anything
    }
  }
  const paths = positionals.slice(skip);
  // `grep -r x` and `rg x` with no path search the current directory.
  const recursive = name === 'rg' || args.some((a) => /^(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dereference-recursive)$/.test(a.value));
  if (paths.length === 0 && recursive && (name === 'rg' || spec === GREP)) reads.push({ value: '.', literal: true });
  if (spec.noPositionals && positionals.length > 0) readOnly = false;
  if (spec.maxPaths !== undefined && paths.length > spec.maxPaths) readOnly = false;
  if (!spec.noPaths) reads.push(...paths.slice(0, spec.maxPaths ?? paths.length));
  return { readOnly, reads };
}
