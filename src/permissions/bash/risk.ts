import type { Word } from './words.js';

/**
 * Environment variables that change which program runs, what it loads before it starts, which
 * configuration it reads or which helper programs it starts. An allowed `git status` with one of
 * these set is no longer the `git status` the user allowed.
 */
const SENSITIVE_NAMES = new RegExp(
  '^(' +
    [
      'PATH', 'HOME', 'ENV', 'BASH_ENV', 'BASH_FUNC_.*', 'SHELL', 'SHELLOPTS', 'BASHOPTS', 'PROMPT_COMMAND', 'PS[0-4]', 'IFS', 'CDPATH',
      'GLOBIGNORE', 'TMPDIR', 'INPUTRC', 'HISTFILE', 'LD_.*', 'DYLD_.*', 'GCONV_PATH', 'LOCPATH', 'NLSPATH', 'GLIBC_TUNABLES', 'MALLOC_.*',
      'HOSTALIASES', 'RES_OPTIONS', 'LOCALDOMAIN', 'GIT_.*', 'XDG_.*', 'NODE_(?!ENV$).*', 'NPM_.*', 'YARN_.*', 'PNPM_.*', 'BUN_.*', 'DENO_.*',
      'COREPACK_.*', 'PYTHON(PATH|STARTUP|HOME|USERBASE|EXECUTABLE|PLATLIBDIR|BREAKPOINT|INSPECT|PYCACHEPREFIX)', 'PIP_.*', 'UV_.*', 'POETRY_.*', 'PIPENV_.*', 'VIRTUAL_ENV', 'CONDA_.*', 'PERL.*', 'RUBY.*', 'GEM_.*',
      'BUNDLE_.*', 'BUNDLER_.*', 'EDITOR', 'VISUAL', 'PAGER', 'MANPAGER', 'MANOPT', 'LESS.*', 'BROWSER', 'SSH_.*', 'CARGO_.*', 'RUSTC.*',
      'RUSTDOC.*', 'RUSTUP_.*', 'GO(FLAGS|PATH|ROOT|PROXY|TOOLCHAIN|BIN|ENV|NOSUMDB|PRIVATE|INSECURE|SUMDB|VCS|WORK|TOOLDIR|CACHE)', 'CGO_.*', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'JAVA_HOME', 'CLASSPATH',
      'MAVEN_.*', 'GRADLE_.*', 'DOTNET_.*', 'COMPOSER.*', 'PHP.*', 'MAKE.*', 'MFLAGS', 'CC', 'CXX', 'CPP', 'LD', 'AR', 'AS',
      'TAR_OPTIONS', 'GZIP', 'XZ_OPT', 'ZSTD_.*', 'BZIP2?', 'ZIPOPT', 'UNZIP', 'OPENSSL_.*', 'SSL_.*', 'CURL_.*', 'WGETRC', 'TERMINFO.*',
      'TERMCAP', 'KUBECONFIG', 'DOCKER_.*', 'PKG_CONFIG.*', 'ASDF_.*', 'MISE_.*', 'NVM_.*', 'VOLTA_.*', 'PYENV_.*', 'RBENV_.*',
      'R_.*', 'JULIA_.*', 'LUA_.*', 'TCL.*', 'EMACS.*', 'VIM.*', 'MYVIMRC', 'SUDO_ASKPASS', 'SSH_ASKPASS', 'GPG_.*', 'GNUPGHOME',
      'POSIXLY_CORRECT',
    ].join('|') +
    ')$|(_OPTIONS|_OPTS|FLAGS|PATH|_HOME|CONFIG|_CMD|_COMMAND|_PROGRAM|_EXEC|SHELL|_HOOKS?|_PLUGINS?|_PRELOAD|RC|_PROXY|_proxy)$',
);

/** The variable name of `NAME=value` or `NAME+=value`, or undefined. */
export function assignedName(text: string): string | undefined {
  return /^([A-Za-z_][A-Za-z0-9_]*|BASH_FUNC_[^=]*)\+?=/.exec(text)?.[1];
}

// npm (and pnpm, through the same config loader) reads npm_config_* in any case: Npm_Config_Script_Shell is script-shell.
const CASELESS_NAMES = /^npm_/i;

/** Whether setting this variable changes what a program runs, loads or writes. */
export function sensitiveVariable(name: string): boolean {
  return SENSITIVE_NAMES.test(name) || CASELESS_NAMES.test(name);
}

/** A reason when assignments in the environment of a command can change what it runs. */
export function envRisk(assignments: readonly Word[]): string | undefined {
  for (const a of assignments) {
    const name = assignedName(a.value);
    if (name === undefined || sensitiveVariable(name)) return `it sets ${name ?? a.value.split('=')[0]}, which changes what the program runs or loads`;
  }
  return undefined;
}

/**
 * Options that make a program run something, or write somewhere the write analysis (writes.ts)
 * reads only when spelled out. GNU tools, git and npm accept a unique prefix of a long option
 * (`sort --compress-prog=sh`, `git grep --open=CMD`, `npm test --script-sh=F`) and bundled short
 * options (`sort -ro F`, `git grep -nOCMD`): both are caught here.
 */
interface RiskSpec {
  /** Options that run a program or read a configuration that can: risky however they are spelled. */
  runs: string[];
  /** Options whose value is written (judged when spelled out): risky only abbreviated or bundled. */
  writes?: string[];
  /** Words (anywhere) that make it run something: `make SHELL=x`, `less +!cmd`. */
  words?: RegExp;
  /** Real options that begin a risky one (git's --text before --textconv): an exact name is never an abbreviation. */
  known?: string[];
}

const OPTION_RISK: Record<string, RiskSpec> = {
  rsync: { runs: ['-e', '--rsh', '--rsync-path'] },
  scp: { runs: ['-S', '-o', '-F'] },
  ssh: { runs: ['-o', '-F'] },
  sftp: { runs: ['-S', '-o', '-F', '-D'] },
  tar: {
    runs: ['--to-command', '--use-compress-program', '-I', '--checkpoint-action', '--info-script', '-F', '--new-volume-script', '--rsh-command', '--rmt-command'],
    writes: ['--extract', '--get', '--file', '--create', '--append', '--update', '--directory'],
  },
  sort: { runs: ['--compress-program'], writes: ['-o', '--output', '-T', '--temporary-directory'] },
  tree: { runs: [], writes: ['-o'] },
  less: { runs: ['--lesskey-file', '--lesskey-src', '-k'], words: /^\+/ },
  more: { runs: [], words: /^\+/ },
  man: { runs: ['-P', '--pager', '-H', '--html', '-B', '-p', '--preprocessor', '-C', '--config-file', '-M', '--manpath'] },
  wget: { runs: ['-e', '--execute', '--config', '--use-askpass'], writes: ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix'] },
  curl: { runs: ['-K', '--config'] },
  cargo: { runs: ['--config', '-Z'] },
  make: { runs: ['-f', '--file', '--makefile', '--eval', '-E'], words: /^(SHELL|MAKESHELL)=/ },
  rg: { runs: ['--pre', '--pre-glob', '--hostname-bin'] },
  zip: { runs: ['-TT', '--unzip-command', '-T'] },
  awk: { runs: ['-f', '--file', '-E', '--exec', '-i', '--include', '-l', '--load'] },
  gawk: { runs: ['-f', '--file', '-E', '--exec', '-i', '--include', '-l', '--load'] },
  sed: { runs: ['-f', '--file'], writes: ['--in-place'] },
  diff: { runs: ['-l', '--paginate'] },
  cp: { runs: [], writes: ['-t', '--target-directory'] },
  mv: { runs: [], writes: ['-t', '--target-directory'] },
  install: { runs: [], writes: ['-t', '--target-directory'] },
  ln: { runs: [], writes: ['-t', '--target-directory'] },
  chmod: { runs: [], writes: ['--reference'] },
  chown: { runs: [], writes: ['--reference'] },
  chgrp: { runs: [], writes: ['--reference'] },
};
const RUNS_ANYTHING = new Set(['vim', 'vi', 'nvim', 'emacs', 'dpkg']);

/** The option a word sets when it is (or abbreviates, or bundles) one of `spec`'s, or undefined. */
function riskyOption(w: string, spec: RiskSpec): string | undefined {
  const writes = spec.writes ?? [];
  if (w.startsWith('--') && w.length > 2) {
    const name = w.slice(0, w.includes('=') ? w.indexOf('=') : w.length);
    if (spec.runs.includes(name)) return name;
    if (spec.known?.includes(name)) return undefined;
    // An abbreviation: the program takes it for the one option it begins.
    return [...spec.runs, ...writes].find((o) => o.startsWith('--') && o !== name && o.startsWith(name));
  }
  if (!w.startsWith('-') || w.length < 2) return undefined;
  if (spec.runs.includes(w)) return w; // whole single-dash options (zip -TT)
  for (let j = 1; j < w.length; j++) {
    const flag = `-${w.charAt(j)}`;
    if (spec.runs.includes(flag) || (j > 1 && writes.includes(flag))) return flag;
  }
  return undefined;
}

// git subcommands with the options (or words) that make them run another program or write unseen.
const GIT_SUBCOMMAND_RISK: Record<string, RiskSpec> = {
  fetch: { runs: ['--upload-pack'] },
  pull: { runs: ['--upload-pack', '-s', '--strategy', '-X', '--strategy-option'] },
  clone: { runs: ['--upload-pack', '-u', '--template', '--config', '-c'] },
  'ls-remote': { runs: ['--upload-pack', '-u', '--exec'] },
  push: { runs: ['--receive-pack', '--exec'] },
  archive: { runs: ['--exec'], writes: ['-o', '--output'] },
  'format-patch': { runs: [], writes: ['-o', '--output-directory', '--output'] },
  diff: { runs: ['--ext-diff', '--textconv'], writes: ['--output'], known: ['--text'] },
  show: { runs: ['--ext-diff', '--textconv'], writes: ['--output'], known: ['--text'] },
  log: { runs: ['--ext-diff', '--textconv'], writes: ['--output'], known: ['--text'] },
  whatchanged: { runs: ['--ext-diff', '--textconv'], writes: ['--output'], known: ['--text'] },
  grep: { runs: ['-O', '--open-files-in-pager', '--textconv'], known: ['--text'] },
  rebase: { runs: ['-x', '--exec'] },
  difftool: { runs: ['-x', '--extcmd', '-t', '--tool'] },
  mergetool: { runs: ['-t', '--tool'] },
  submodule: { runs: [], words: /^foreach$/ },
  bisect: { runs: [], words: /^run$/ },
  blame: { runs: ['--textconv'] },
  'cat-file': { runs: ['--textconv', '--filters'] },
  commit: { runs: ['--template', '-t'] },
  config: { runs: ['--edit', '-e'] },
};
const GIT_RUNS_GIVEN = new Set(['filter-branch', 'filter-repo']);

// git global options that run code or read another repository's configuration and hooks.
const GIT_GLOBAL_RISK = /^(-c.*|--config-env.*|--exec-path=.*|-C.*|--git-dir.*|--work-tree.*|--namespace.*|--super-prefix.*|--attr-source.*)$/;

const optionName = (w: string): string => (w.includes('=') ? w.slice(0, w.indexOf('=')) : w);

function gitRisk(args: readonly Word[]): string | undefined {
  let i = 0;
  for (let w = args[i]?.value; w?.startsWith('-'); w = args[++i]?.value) {
    if (GIT_GLOBAL_RISK.test(w)) return `git ${optionName(w)} changes the configuration or repository git runs with`;
    if (/^(--namespace|--super-prefix|--list-cmds)$/.test(w)) i += 1;
  }
  const sub = args[i]?.value;
  if (sub === undefined) return undefined;
  if (GIT_RUNS_GIVEN.has(sub)) return `git ${sub} runs commands given to it`;
  const spec = GIT_SUBCOMMAND_RISK[sub];
  if (!spec) return undefined;
  for (const a of args.slice(i + 1)) {
    if (a.value === '--') break;
    if (spec.words?.test(a.value)) return `git ${sub} ${a.value} runs commands given to it`;
    const hit = riskyOption(a.value, spec);
    if (hit) return `git ${sub} ${optionName(a.value)} (${hit}) runs another program or writes where cairn does not look`;
  }
  return undefined;
}

// npm-family configuration set on the command line (every `--key=value` is a config setting): keys that run
// programs, read another configuration, move the project, or write (cache, logs).
const NPM_RISKY_KEYS = [
  'script-shell', 'shell', 'userconfig', 'globalconfig', 'prefix', 'dir', 'cwd', 'node-options', 'git', 'editor', 'browser', 'viewer',
  'onload-script', 'init-module', 'call', 'node-gyp', 'npm-path', 'package', 'registry', 'config', 'rc', 'use-node-version', 'store-dir',
  'virtual-store-dir', 'modules-dir', 'global-dir', 'hooks', 'pnpmfile', 'global-pnpmfile', 'yarn-path', 'plugin', 'cache', 'cache-dir',
  'cache-folder', 'logs-dir', 'logs-max', 'tmp', 'location', 'global-folder', 'modules-folder', 'link-folder', 'use-yarnrc', 'preload',
  'require', 'env-file', 'tsconfig-override',
];
// npm's short forms (nopt shorthands): -C is --prefix, -c --call, -reg --registry; the others only set output or save flags.
const NPM_SHORTHANDS = new Set(['a', 'c', 'C', 's', 'd', 'dd', 'ddd', 'q', 'g', 'l', 'p', 'y', 'n', 'w', 'ws', 'iwr', 'f', 'D', 'E', 'O', 'P', 'S', 'B', 'h', 'H', 'v', 'm', '?', 'reg', 'desc']);
const NPM_RISKY_SHORTHANDS = new Set(['c', 'C', 'reg']);
const NPM_FAMILY = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx']);

/** Whether an npm-family word sets a risky configuration key, as nopt resolves it. */
function npmRiskyWord(w: string): boolean {
  if (!w.startsWith('-') || w === '-') return false;
  const key = optionName(w).replace(/^-+/, '');
  if (key === '') return false;
  if (NPM_SHORTHANDS.has(key)) return NPM_RISKY_SHORTHANDS.has(key);
  // `-sC` is `-s -C` when every letter is a shorthand.
  if ([...key].every((c) => NPM_SHORTHANDS.has(c))) return [...key].some((c) => NPM_RISKY_SHORTHANDS.has(c));
  const norm = key.toLowerCase().replace(/_/g, '-');
  // A key with a dot sets a nested setting (pnpm --config.x=y); nopt takes a unique prefix for the whole key.
  return norm.includes('.') || NPM_RISKY_KEYS.some((k) => k.startsWith(norm) || norm.startsWith(`${k}.`));
}

function npmRisk(name: string, args: readonly Word[]): string | undefined {
  const end = args.findIndex((a) => a.value === '--');
  const own = end < 0 ? args : args.slice(0, end);
  const hit = own.find((a) => npmRiskyWord(a.value));
  return hit ? `${name} ${optionName(hit.value)} changes what ${name} runs or where it writes` : undefined;
}

/** A reason when an option makes the program run something other than what the rule's prefix suggests. */
export function optionRisk(name: string, args: readonly Word[]): string | undefined {
  if (name === 'git') return gitRisk(args);
  if (NPM_FAMILY.has(name)) return npmRisk(name, args);
  if (RUNS_ANYTHING.has(name)) return `${name} can run commands of its own`;
  const spec = OPTION_RISK[name];
  if (!spec) return undefined;
  for (const a of args) {
    if (spec.words?.test(a.value)) return `${name} ${a.value} runs another program`;
    const hit = riskyOption(a.value, spec);
    if (hit) return `${name} ${optionName(a.value)} (${hit}) runs another program, reads a configuration that can, or writes where cairn does not look`;
  }
  return undefined;
}
