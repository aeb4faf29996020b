import { options, scanOptions, withOptions, type OptionTable } from './readonly-options.js';
import type { Word } from './words.js';

// Options of git's read-only subcommands, an allowlist as for the other programs (readonly-options.ts).
// Left out on purpose: --output (writes), --ext-diff, --textconv, --filters, --show-signature (run programs),
// grep's -O/--open-files-in-pager (runs a program). git accepts unique prefixes of long options
// (`git grep --open=CMD`): an option that is not in a table exactly is not read-only.

const DIFF =
  '-p -u -s -z -R -a -b -w -W -D --patch --no-patch --raw --patch-with-raw --patch-with-stat --indent-heuristic --no-indent-heuristic ' +
  '--minimal --patience --histogram --compact-summary --numstat --shortstat --cumulative --summary --name-only --name-status --no-color ' +
  '--no-color-moved --no-color-moved-ws --no-renames --rename-empty --no-rename-empty --check --full-index --binary --find-copies-harder ' +
  '--irreversible-delete --pickaxe-all --pickaxe-regex --no-relative --text --ignore-cr-at-eol --ignore-space-at-eol --ignore-space-change ' +
  '--ignore-all-space --ignore-blank-lines --function-context --exit-code --quiet --no-ext-diff --no-textconv --no-prefix --default-prefix ' +
  '--ita-invisible-in-index --ita-visible-in-index --stat? --dirstat? --dirstat-by-file? --submodule? --color? --color-moved? --word-diff? ' +
  '--color-words? --abbrev? --break-rewrites? --find-renames? --find-copies? --relative? --ignore-submodules? --unified? -B? -M? -C? -X? ' +
  '-U= -l= -S= -G= -I= --anchored= --diff-algorithm= --color-moved-ws= --word-diff-regex= --ws-error-highlight= --diff-filter= ' +
  '--find-object= --skip-to= --rotate-to= --ignore-matching-lines= --inter-hunk-context= --src-prefix= --dst-prefix= --line-prefix= ' +
  '--output-indicator-new= --output-indicator-old= --output-indicator-context= --stat-width= --stat-name-width= --stat-count= ' +
  '--stat-graph-width= -O@';
const REVS =
  '--all-match --invert-grep -i --regexp-ignore-case --basic-regexp -E --extended-regexp -F --fixed-strings -P --perl-regexp ' +
  '--remove-empty --merges --no-merges --no-min-parents --no-max-parents --first-parent --exclude-first-parent-only --not --all --reflog ' +
  '--alternate-refs --single-worktree --ignore-missing --bisect --stdin --cherry-mark --cherry-pick --left-only --right-only --cherry ' +
  '--walk-reflogs -g --merge --boundary --simplify-by-decoration --show-pulls --full-history --dense --sparse --simplify-merges ' +
  '--date-order --author-date-order --topo-order --reverse --do-walk --abbrev-commit --no-abbrev-commit --oneline --no-expand-tabs ' +
  '--no-notes --standard-notes --no-standard-notes --relative-date --parents --children --left-right --graph --follow --no-decorate ' +
  '--source --mailmap --no-mailmap --use-mailmap --no-use-mailmap --full-diff --log-size -c --cc --dd --combined-all-paths -m -t -r ' +
  '--root --no-diff-merges --clear-decorations --branches? --tags? --remotes? --pretty? --expand-tabs? --notes? --show-notes? ' +
  '--decorate? --ancestry-path? --show-linear-break? --no-walk? -n= --max-count= --skip= --since= --after= --since-as-filter= --until= ' +
  '--before= --max-age= --min-age= --author= --committer= --grep-reflog= --grep= --min-parents= --max-parents= --glob= --exclude= ' +
  '--exclude-hidden= --format= --encoding= --date= --decorate-refs= --decorate-refs-exclude= -L= --diff-merges=';

const git = (words: string, extra: Omit<OptionTable, 'options'> = {}): OptionTable => options(words, extra);
const LOG = git(`${REVS} ${DIFF}`, { numeric: true });
const REV_LIST = withOptions(
  git(REVS, { numeric: true }),
  '--count --objects --objects-edge --objects-edge-aggressive --unpacked --header --timestamp --bisect-vars --bisect-all --quiet ' +
    '--in-commit-order --use-bitmap-index --indexed-objects --no-object-names --object-names --exclude-promisor-objects ' +
    '--filter-print-omitted --disk-usage? --missing= --filter= --progress=',
);

/** Subcommands that only read, each with the options it may be given. */
export const GIT_READ: Record<string, OptionTable> = {
  status: git(
    '-s -b -v -z --short --branch --show-stash --long --verbose --null --no-column --ahead-behind --no-ahead-behind --renames ' +
      '--no-renames --porcelain? --untracked-files? --ignore-submodules? --ignored? --column? --find-renames? -u? -M?',
  ),
  diff: withOptions(git(DIFF), '--cached --staged --merge-base --no-index -1 -2 -3 --ours --theirs --base'),
  log: LOG,
  show: LOG,
  whatchanged: LOG,
  shortlog: withOptions(LOG, '-n -s -e -w? --numbered --summary --email --committer --group='),
  'rev-list': REV_LIST,
  'rev-parse': git(
    '--show-toplevel --git-dir --absolute-git-dir --git-common-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository ' +
      '--is-shallow-repository --show-prefix --show-cdup --show-superproject-working-tree --verify -q --quiet --symbolic ' +
      '--symbolic-full-name --all --not --local-env-vars --sq --flags --no-flags --revs-only --no-revs --shared-index-path ' +
      '--show-ref-format --abbrev-ref? --short? --branches? --tags? --remotes? --show-object-format? --glob= --exclude= --since= ' +
      '--after= --until= --before= --default= --prefix= --git-path= --path-format= --disambiguate= --resolve-git-dir@',
  ),
  'ls-files': git(
    '-c -d -m -o -i -s -u -k -z -t -v -f --cached --deleted --modified --others --ignored --stage --unmerged --killed --directory ' +
      '--no-empty-directory --eol --exclude-standard --full-name --recurse-submodules --debug --deduplicate --error-unmatch --sparse ' +
      '--resolve-undo --abbrev? --format= -x= --exclude= --exclude-per-directory= --with-tree= -X@ --exclude-from@',
  ),
  blame: git(
    '-b -l -t -p -s -e -w -c -f -n --root --show-stats --first-parent --porcelain --line-porcelain --incremental --progress ' +
      '--no-progress --color-lines --color-by-age --minimal --show-email --score-debug --show-name --show-number --no-textconv ' +
      '--abbrev? -M? -C? -L= --reverse= --encoding= --date= --ignore-rev= --since= -S@ --contents@ --ignore-revs-file@',
  ),
  describe: git('--all --tags --contains --exact-match --debug --long --always --first-parent --abbrev? --dirty? --broken? --candidates= --match= --exclude='),
  'ls-tree': git('-d -r -t -l -z --name-only --name-status --object-only --full-name --full-tree --long --abbrev? --format='),
  'show-ref': git('--head --tags --heads --branches --verify --exists -d --dereference -s --quiet --hash? --abbrev? --exclude-existing?'),
  'merge-base': git('-a --all --octopus --independent --is-ancestor --fork-point'),
  'name-rev': git('--tags --all --name-only --no-undefined --always --annotate-stdin --stdin --refs= --exclude='),
  'count-objects': git('-v -H --verbose --human-readable'),
  'for-each-ref': git(
    '--shell --perl --python --tcl --ignore-case --omit-empty --stdin --include-root-refs --color? --merged? --no-merged? ' +
      '--contains? --no-contains? --count= --sort= --format= --points-at= --exclude=',
  ),
  'cat-file': git(
    '-t -s -e -p -Z --batch-all-objects --buffer --unordered --follow-symlinks --allow-unknown-type --use-mailmap --no-use-mailmap ' +
      '--mailmap --no-mailmap --batch? --batch-check? --batch-command? --path=',
  ),
  grep: git(
    '-a -i -I -r -w -v -h -H -E -G -P -F -n -l -L -z -o -c -p -W -q --text --no-textconv --ignore-case --recursive --no-recursive ' +
      '--word-regexp --invert-match --full-name --extended-regexp --basic-regexp --perl-regexp --fixed-strings --line-number --column ' +
      '--files-with-matches --name-only --files-without-match --null --only-matching --count --no-color --break --heading --show-function ' +
      '--function-context --and --or --not --all-match --quiet --cached --untracked --no-index --no-exclude-standard --exclude-standard ' +
      '--recurse-submodules --color? --max-depth= -A= -B= -C= --after-context= --before-context= --context= -m= --max-count= --threads= ' +
      '-e= -f@',
    { numeric: true },
  ),
  'check-ignore': git('-q -v -n -z --quiet --verbose --non-matching --no-index --stdin'),
  'check-attr': git('-a -z --all --cached --stdin --source='),
};

// Forms of branch/tag/remote/config/stash/worktree/reflog that only list.
export const GIT_LIST: Record<string, RegExp> = {
  branch: /^(-a|--all|-r|--remotes|-v|-vv|--verbose|-l|--list|--show-current|--merged|--no-merged|--contains|--no-contains|--points-at|--sort=.*|--format=.*|--color(=.*)?|--no-color|--column(=.*)?|--no-column|-i|--ignore-case)$/,
  tag: /^(-l|--list|-n\d*|--sort=.*|--format=.*|--contains|--no-contains|--merged|--no-merged|--points-at|--color(=.*)?|--column(=.*)?|-i|--ignore-case)$/,
  remote: /^(-v|--verbose|show|get-url)$/,
  config: /^(--get|--get-all|--get-regexp|-l|--list|--show-origin|--show-scope|--null|-z|--name-only|--type=.*|--global|--local|--system|--includes|--default)$/,
  stash: /^(list|show)$/,
  worktree: /^list$/,
  reflog: /^(show)$/,
};

// Global options before the subcommand that change nothing it does.
const GIT_GLOBAL = /^(--no-pager|-P|--no-optional-locks|--no-replace-objects|--literal-pathspecs|--glob-pathspecs|--noglob-pathspecs|--icase-pathspecs)$/;

// Subcommands that print what files hold (from the work tree or any commit), not only their names.
const PRINTS_CONTENT = new Set(['show', 'diff', 'grep', 'cat-file', 'blame', 'whatchanged']);
const PATCH_OPTION = /^(-p|-u|--patch|-L.*|--word-diff.*|--patch-with-stat|--patch-with-raw|--cc|-c)$/;

/**
 * The files a content-printing git command can show, so Read deny rules hold against it
 * (`git show HEAD:.env`, `git log -p`, `git grep x`): `rev:path` names path; a pathspec names itself;
 * with neither, it can show any file of the repository, which is the workspace.
 */
function contentReads(sub: string, positionals: readonly Word[], seen: ReadonlySet<string>, args: readonly Word[]): Word[] {
  const prints = PRINTS_CONTENT.has(sub) || (sub === 'log' && args.some((a) => PATCH_OPTION.test(a.value))) || (sub === 'stash' && args.some((a) => PATCH_OPTION.test(a.value)));
  if (!prints) return [];
  if (sub === 'blame') return [...positionals];
  const dashes = args.findIndex((a) => a.value === '--');
  const named: Word[] = [];
  for (const w of positionals) {
    const colon = w.value.indexOf(':');
    if (colon >= 0) named.push({ ...w, value: w.value.slice(colon + 1).replace(/^\.\//, '') || '.' });
  }
  if (dashes >= 0) named.push(...args.slice(dashes + 1));
  const grepPattern = sub === 'grep' && !seen.has('-e') && !seen.has('-f');
  const broad = dashes < 0 && positionals.slice(grepPattern ? 1 : 0).every((w) => !w.value.includes(':'));
  return broad ? [...named, { value: '.', literal: true }] : named;
}

/** What a git command reads, and whether reading is all it does. */
export function gitFacts(args: readonly Word[]): { readOnly: boolean; reads: Word[] } {
  let i = 0;
  while (GIT_GLOBAL.test(args[i]?.value ?? '') && args[i]?.literal) i += 1;
  const first = args[i];
  const sub = first?.literal ? first.value : '';
  const rest = args.slice(i + 1);
  const table = GIT_READ[sub];
  if (table) {
    const scan = scanOptions(table, rest);
    const reads = [...scan.reads];
    if (scan.seen.has('--no-index')) reads.push(...scan.positionals.slice(sub === 'grep' && !scan.seen.has('-e') && !scan.seen.has('-f') ? 1 : 0));
    else reads.push(...contentReads(sub, scan.positionals, scan.seen, rest));
    return { readOnly: scan.known, reads };
  }
  const list = GIT_LIST[sub];
  if (list && rest.every((a) => a.literal)) {
    // `git config --get x`, `git branch --list 'fix*'`: a value after a listing option is a pattern, not a change.
    const listing = rest.some((a) => /^(--get.*|-l|--list|show|get-url|list)$/.test(a.value));
    const onlyListing = rest.every((a) => list.test(a.value) || (listing && !a.value.startsWith('-')));
    return { readOnly: onlyListing && (sub !== 'config' || listing), reads: [] };
  }
  return { readOnly: false, reads: [] };
}
