import { options, type OptionTable } from './readonly-options.js';

/** A program cairn knows to only read and print when given options from its table. */
export interface ReadSpec extends OptionTable {
  /** Leading positional words that are not paths (grep's pattern, jq's filter). */
  skip?: number;
  /** Options that replace the skipped positional (`grep -e PAT`, `jq -f FILE`). */
  skipReplacedBy?: string[];
  /** No argument is a path (echo, which, tr). */
  noPaths?: boolean;
  /** At most this many positionals are read; one more is written (uniq IN OUT, xxd IN OUT). */
  maxPaths?: number;
  /** Any positional argument at all makes it change something (`hostname NAME`). */
  noPositionals?: boolean;
  /** Positionals must look like this (`date +%s`; `date 0101` would set the clock). */
  positional?: RegExp;
  /** Prints, ignores or tests its arguments whatever they are (echo, true, test). */
  anything?: boolean;
}

const own = (words: string, extra: Omit<ReadSpec, 'options'> = {}): ReadSpec => ({ ...extra, ...options(words) });
// GNU programs all take --help and --version.
const spec = (words: string, extra: Omit<ReadSpec, 'options'> = {}): ReadSpec => own(`--help --version ${words}`, extra);

const ANY: ReadSpec = { options: new Map(), noPaths: true, anything: true };
const none = (extra: Omit<ReadSpec, 'options'> = {}): ReadSpec => spec('', { noPaths: true, ...extra });

// grep -R follows symlinks: a recursive read could leave the workspace.
const GREP = spec(
  '-E -F -G -P -i -y -v -w -x -c -L -l -o -q -s -b -H -h -n -T -Z -z -a -I -r -U --extended-regexp --fixed-strings --basic-regexp ' +
    '--perl-regexp --ignore-case --no-ignore-case --invert-match --word-regexp --line-regexp --count --files-without-match ' +
    '--files-with-matches --only-matching --quiet --silent --no-messages --byte-offset --with-filename --no-filename --line-number ' +
    '--initial-tab --null --null-data --text --recursive --line-buffered --binary --no-group-separator ' +
    '-e= -m= -A= -B= -C= -d= -D= --regexp= --max-count= --after-context= --before-context= --context= --include= --exclude= ' +
    '--exclude-dir= --label= --binary-files= --devices= --directories= --group-separator= --color? --colour? -f@ --file@ --exclude-from@',
  { numeric: true, skip: 1, skipReplacedBy: ['-e', '--regexp', '-f', '--file'] },
);
// rg -L follows symlinks, --pre and --hostname-bin run programs; -z runs the system's decompressors.
const RG = spec(
  '-a -b -c -F -H -I -i -l -n -N -o -p -P -q -s -S -u -U -v -w -x -z -0 -. --binary --block-buffered --byte-offset --case-sensitive ' +
    '--column --count --count-matches --crlf --debug --trace --files --files-with-matches --files-without-match --fixed-strings ' +
    '--glob-case-insensitive --heading --hidden --ignore-case --ignore-file-case-insensitive --include-zero --invert-match --json ' +
    '--line-buffered --line-number --line-regexp --max-columns-preview --mmap --multiline --multiline-dotall --no-config --no-filename ' +
    '--no-heading --no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global --no-ignore-messages ' +
    '--no-ignore-parent --no-ignore-vcs --no-line-number --no-messages --no-mmap --no-pcre2-unicode --no-require-git --no-unicode ' +
    '--null --null-data --one-file-system --only-matching --passthru --pcre2 --pcre2-version --pretty --quiet --search-zip --smart-case ' +
    '--stats --text --type-list --unrestricted --vimgrep --with-filename --word-regexp --no-hidden --no-follow --no-context-separator ' +
    '-e= -g= -t= -T= -m= -A= -B= -C= -M= -j= -d= -r= -E= --regexp= --glob= --iglob= --type= --type-not= --type-add= --type-clear= ' +
    '--max-count= --after-context= --before-context= --context= --max-columns= --threads= --max-depth= --sort= --sortr= --replace= ' +
    '--color= --colors= --path-separator= --encoding= --engine= --max-filesize= --context-separator= --field-match-separator= ' +
    '--field-context-separator= --dfa-size-limit= --regex-size-limit= -f@ --file@ --ignore-file@',
  { skip: 1, skipReplacedBy: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'] },
);
const SUMS = spec('-b -c -t -z -w --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn');
const GREP_LIKE = { grep: GREP, egrep: GREP, fgrep: GREP };

export const READ_SPECS: Record<string, ReadSpec> = {
  ls: spec(
    '-a -A -b -B -c -C -d -D -f -F -g -G -h -H -i -k -l -L -m -n -N -o -p -q -Q -r -R -s -S -t -u -U -v -x -X -Z -1 --all --almost-all ' +
      '--author --escape --ignore-backups --directory --dired --file-type --full-time --group-directories-first --no-group ' +
      '--human-readable --si --dereference-command-line --dereference-command-line-symlink-to-dir --inode --kibibytes --dereference ' +
      '--literal --numeric-uid-gid --hide-control-chars --show-control-chars --quote-name --reverse --recursive --size --context --zero ' +
      '-I= -w= -T= --ignore= --width= --tabsize= --hide= --format= --sort= --time= --time-style= --block-size= --quoting-style= ' +
      '--indicator-style= --color? --classify? --hyperlink?',
    { computedOk: true },
  ),
  cat: spec('-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs --show-nonprinting', { computedOk: true }),
  tac: spec('-b -r -s= --before --regex --separator=', { computedOk: true }),
  rev: spec('-0 -h -V --zero', { computedOk: true }),
  nl: spec(
    '-p --no-renumber -b= -d= -f= -h= -i= -l= -n= -s= -v= -w= --body-numbering= --section-delimiter= --footer-numbering= ' +
      '--header-numbering= --line-increment= --join-blank-lines= --number-format= --number-separator= --starting-line-number= --number-width=',
  ),
  head: spec('-q -v -z --quiet --silent --verbose --zero-terminated -n= -c= --lines= --bytes=', { numeric: true, computedOk: true }),
  tail: spec(
    '-f -F -q -v -z --retry --quiet --silent --verbose --zero-terminated --follow? -n= -c= -s= --lines= --bytes= --sleep-interval= ' +
      '--pid= --max-unchanged-stats=',
    { numeric: true, computedOk: true },
  ),
  wc: spec('-c -m -l -L -w --bytes --chars --lines --max-line-length --words --total= --files0-from@'),
  ...GREP_LIKE,
  rg: RG,
  pwd: spec('-L -P --logical --physical', { noPaths: true }),
  echo: ANY, true: ANY, false: ANY, ':': ANY, test: ANY, '[': ANY,
  // bash builtins stop at the first operand; printf -v assigns a variable.
  printf: none({ stopAtPositional: true }),
  type: own('-a -f -p -P -t', { noPaths: true, stopAtPositional: true }),
  which: spec('-a -s -i -v -V --all --skip-alias --skip-functions --skip-dot --skip-tilde --show-dot --show-tilde --tty-only --read-alias --read-functions', { noPaths: true }),
  whereis: spec('-b -m -s -u -l', { noPaths: true }),
  whoami: none(), users: none(), arch: none(), groups: none(),
  id: spec('-a -Z -g -G -n -r -u -z --context --group --groups --name --real --user --zero', { noPaths: true }),
  uname: spec('-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release --kernel-version --machine --processor --hardware-platform --operating-system', { noPaths: true }),
  nproc: spec('--all --ignore=', { noPaths: true }),
  tty: spec('-s --silent --quiet', { noPaths: true }),
  locale: spec('-a -m -c -k -v --all-locales --charmaps --category-name --keyword-name --verbose', { noPaths: true }),
  uptime: spec('-p -s -h -V --pretty --since', { noPaths: true }),
  seq: spec('-w --equal-width -f= -s= --format= --separator=', { noPaths: true, numeric: true }),
  tr: spec('-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1', { noPaths: true }),
  basename: spec('-a -z --multiple --zero -s= --suffix=', { noPaths: true }),
  dirname: spec('-z --zero', { noPaths: true }),
  printenv: spec('-0 --null', { noPaths: true }),
  env: spec('-0 -i --null --ignore-environment -u= --unset=', { noPaths: true }),
  sleep: none(),
  getconf: spec('-a -v=', { noPaths: true }),
  hostname: spec('-a -A -d -f -i -I -s -y -v --alias --all-fqdns --domain --fqdn --long --ip-address --all-ip-addresses --short --yp --nis --verbose', { noPaths: true, noPositionals: true }),
  date: spec('-R -u --rfc-email --utc --universal --debug --resolution -I? --iso-8601? -d= --date= --rfc-3339= -f@ --file@ -r@ --reference@', { noPaths: true, positional: /^\+/ }),
  realpath: spec('-e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip --no-symlinks --zero --relative-to= --relative-base='),
  readlink: spec('-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero'),
  // file -C compiles a magic file, -p resets the access time it read.
  file: spec(
    '-b -c -d -E -h -i -k -l -L -n -N -r -s -S -v -z -Z -0 --brief --checking-printout --debug --extension --keep-going --list ' +
      '--dereference --no-dereference --mime --mime-type --mime-encoding --apple --no-buffer --no-pad --raw --special-files --uncompress ' +
      '--uncompress-noreport --print0 -e= -F= -P= --exclude= --exclude-quiet= --separator= --parameter= -m@ -f@ --magic-file@ --files-from@',
  ),
  stat: spec('-L -f -t --dereference --file-system --terse --cached= -c= --format= --printf='),
  // du -L follows symlinks out of the workspace.
  du: spec(
    '-0 -a -b -c -D -H -h -k -l -m -P -s -S -x --null --all --apparent-size --bytes --total --dereference-args --human-readable --si ' +
      '--count-links --no-dereference --summarize --separate-dirs --one-file-system --inodes --time? -d= -B= -t= --max-depth= ' +
      '--block-size= --threshold= --exclude= --time-style= -X@ --exclude-from@ --files0-from@',
  ),
  df: spec('-a -h -H -i -k -l -P -T -v --all --human-readable --si --inodes --local --portability --print-type --total --no-sync --output? -B= -t= -x= --block-size= --type= --exclude-type='),
  // diff -l (--paginate) runs pr.
  diff: spec(
    '-i -E -Z -b -w -B -a -c -u -e -n -y -q -s -r -N -p -t -T -d --ignore-case --strip-trailing-cr --text --minimal --speed-large-files ' +
      '--suppress-common-lines --suppress-blank-empty --left-column --expand-tabs --initial-tab --normal --brief --report-identical-files ' +
      '--recursive --new-file --unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case --ignore-tab-expansion ' +
      '--ignore-trailing-space --ignore-space-change --ignore-all-space --ignore-blank-lines --show-c-function --no-dereference --ed --rcs ' +
      '--side-by-side --unified? --context? --color? -U= -C= -S= -x= -I= -F= -W= -D= -L= --starting-file= --exclude= ' +
      '--ignore-matching-lines= --show-function-line= --label= --width= --tabsize= --horizon-lines= --line-format= --old-line-format= ' +
      '--new-line-format= --unchanged-line-format= --changed-group-format= --old-group-format= --new-group-format= ' +
      '--unchanged-group-format= --ifdef= --palette= -X@ --exclude-from@ --from-file@ --to-file@',
  ),
  cmp: spec('-b -l -s --print-bytes --verbose --quiet --silent -i= -n= --ignore-initial= --bytes='),
  comm: spec('-1 -2 -3 -z --check-order --nocheck-order --total --zero-terminated --output-delimiter='),
  // sort -o writes, --compress-program runs, -T writes its temporary files in a directory.
  sort: spec(
    '-b -d -f -g -h -i -M -n -R -r -V -c -C -m -s -u -z --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort ' +
      '--human-numeric-sort --ignore-nonprinting --month-sort --numeric-sort --random-sort --reverse --version-sort --check? --merge ' +
      '--stable --unique --zero-terminated --debug -k= -t= -S= --key= --field-separator= --buffer-size= --parallel= --batch-size= --sort= ' +
      '--files0-from@ --random-source@',
  ),
  uniq: spec('-c -d -D -i -u -z --count --repeated --all-repeated? --group? --ignore-case --unique --zero-terminated -f= -s= -w= --skip-fields= --skip-chars= --check-chars=', { maxPaths: 1 }),
  cut: spec('-n -s -z --complement --only-delimited --zero-terminated -b= -c= -f= -d= --bytes= --characters= --fields= --delimiter= --output-delimiter='),
  // jq --rawfile and --slurpfile read files, --args turns the files into arguments.
  jq: own(
    '-n -r -j -a -s -c -C -M -S -e -R -h -V --null-input --raw-input --slurp --compact-output --tab --color-output --monochrome-output ' +
      '--ascii-output --unbuffered --sort-keys --raw-output --join-output --raw-output0 --exit-status --seq --stream --stream-errors --help ' +
      '--version --indent= -L= --arg== --argjson== -f@ --from-file@',
    { skip: 1, skipReplacedBy: ['-f', '--from-file'] },
  ),
  // tree -o writes, -R (with -H) writes an index into every directory, -l follows symlinks.
  tree: own(
    '-a -d -f -x -q -N -Q -p -u -g -s -h -D -F -v -t -c -U -r -i -A -S -n -C -X -J --gitignore --ignore-case --matchdirs --prune ' +
      '--noreport --si --du --inodes --device --dirsfirst --filesfirst --help --version -L= -P= -I= --charset= --filelimit= --timefmt= --sort=',
  ),
  md5sum: SUMS, sha1sum: SUMS, sha224sum: SUMS, sha256sum: SUMS, sha384sum: SUMS, sha512sum: SUMS,
  b2sum: spec('-b -c -t -z -w --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn -l= --length='),
  cksum: spec('-c -w -z --check --warn --zero --base64 --raw --tag --untagged --debug --ignore-missing --quiet --status --strict -a= -l= --algorithm= --length='),
  shasum: own('-b -c -t -U -0 -s -w -h -v --binary --check --text --UNIVERSAL --01 --tag --ignore-missing --quiet --status --strict --warn --help --version -a= --algorithm='),
  od: spec(
    '-a -b -c -d -f -i -l -o -s -x -v --output-duplicates --traditional -w? -S? --width? --strings? -A= -j= -N= -t= --address-radix= ' +
      '--skip-bytes= --read-bytes= --format= --endian=',
  ),
  hexdump: own('-b -c -C -d -o -x -v -h -V --help --version -n= -s= -e= -L? --color? -f@'),
  // xxd -r writes the binary back (into a file given as a second name); it reads its options whole (`-cols 8`, `-c8`).
  xxd: own(
    '-a -autoskip -b -bits -C -capitalize -E -EBCDIC -e -h -help -i -include -p -ps -postscript -plain -u -uppercase -v -version ' +
      '-c= -cols= -g= -groupsize= -l= -len= -s= -seek= -o= -offset= -n= -name= -R=',
    { noBundle: true, maxPaths: 1 },
  ),
  column: own(
    '-t -x -n -e -L -J -d -h -V --table --fillrows --json --keep-empty-lines --table-noheadings --help --version -c= -s= -o= -N= -R= ' +
      '-H= -O= -E= -W= -l= -T= -r= -i= -p= --table-columns= --table-name= --table-order= --table-right= --table-hide= --table-truncate= ' +
      '--table-noextreme= --table-wrap= --tree= --tree-id= --tree-parent= --separator= --output-separator= --output-width= --table-columns-limit=',
  ),
  fold: spec('-b -s --bytes --spaces -w= --width='),
  fmt: spec('-c -s -t -u --crown-margin --split-only --tagged-paragraph --uniform-spacing -p= -w= -g= --prefix= --width= --goal=', { numeric: true }),
  paste: spec('-s -z --serial --zero-terminated -d= --delimiters='),
  expand: spec('-i --initial -t= --tabs='),
  unexpand: spec('-a --all --first-only -t= --tabs='),
  strings: spec('-a -d -f -w -o --all --data --print-file-name --include-all-whitespace -n= -t= -e= -s= -U= -T= --bytes= --radix= --encoding= --output-separator= --unicode= --target=', { numeric: true }),
};
