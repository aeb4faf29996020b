import type { Word } from './bash-words.js';

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
      'HOSTALIASES', 'RES_OPTIONS', 'LOCALDOMAIN', 'GIT_.*', 'XDG_.*', 'NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_.*', 'NODE_EXTRA_CA_CERTS', 'NODE_TLS_.*', 'NPM_.*', 'npm_.*', 'YARN_.*', 'PNPM_.*', 'BUN_.*', 'DENO_.*',
      'COREPACK_.*', 'PYTHON(PATH|STARTUP|HOME|USERBASE|EXECUTABLE|PLATLIBDIR|BREAKPOINT|INSPECT|PYCACHEPREFIX)', 'PIP_.*', 'UV_.*', 'POETRY_.*', 'PIPENV_.*', 'VIRTUAL_ENV', 'CONDA_.*', 'PERL.*', 'RUBY.*', 'GEM_.*',
      'BUNDLE_.*', 'BUNDLER_.*', 'EDITOR', 'VISUAL', 'PAGER', 'MANPAGER', 'MANOPT', 'LESS.*', 'BROWSER', 'SSH_.*', 'CARGO_.*', 'RUSTC.*',
      'RUSTDOC.*', 'RUSTUP_.*', 'GO(FLAGS|PATH|ROOT|PROXY|TOOLCHAIN|BIN|ENV|NOSUMDB|PRIVATE|INSECURE|SUMDB|VCS|WORK|TOOLDIR|CACHE)', 'CGO_.*', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'JAVA_HOME', 'CLASSPATH',
      'MAVEN_.*', 'GRADLE_.*', 'DOTNET_.*', 'COMPOSER.*', 'PHP.*', 'MAKE.*', 'MFLAGS', 'CC', 'CXX', 'CPP', 'LD', 'AR', 'AS',
      'TAR_OPTIONS', 'GZIP', 'XZ_OPT', 'ZSTD_.*', 'BZIP2?', 'ZIPOPT', 'UNZIP', 'OPENSSL_.*', 'SSL_.*', 'CURL_.*', 'WGETRC', 'TERMINFO.*',
      'TERMCAP', 'KUBECONFIG', 'DOCKER_.*', 'PKG_CONFIG.*', 'ASDF_.*', 'MISE_.*', 'NVM_.*', 'VOLTA_.*', 'PYENV_.*', 'RBENV_.*',
      'R_.*', 'JULIA_.*', 'LUA_.*', 'TCL.*', 'EMACS.*', 'VIM.*', 'MYVIMRC', 'SUDO_ASKPASS', 'SSH_ASKPASS', 'GPG_.*', 'GNUPGHOME',
    ].join('|') +
    ')$|(_OPTIONS|_OPTS|FLAGS|PATH|_HOME|CONFIG|_CMD|_COMMAND|_PROGRAM|_EXEC|SHELL|_HOOKS?|_PLUGINS?|_PRELOAD|RC|_PROXY|_proxy)$',
);

/** The variable name of `NAME=value` or `NAME+=value`, or undefined. */
export function assignedName(text: string): string | undefined {
  return /^([A-Za-z_][A-Za-z0-9_]*|BASH_FUNC_[^=]*)\+?=/.exec(text)?.[1];
}

/** Why setting this variable changes what a program runs, or undefined when it is harmless. */
export function sensitiveVariable(name: string): boolean {
  return SENSITIVE_NAMES.test(name);
}

/** A reason when assignments in the environment of a command can change what it runs. */
export function envRisk(assignments: readonly Word[]): string | undefined {
  for (const a of assignments) {
    const name = assignedName(a.value);
    if (name === undefined || sensitiveVariable(name)) return `it sets ${name ?? a.value.split('=')[0]}, which changes what the program runs or loads`;
  }
  return undefined;
}

/** Option names of a word: `--x=y` is `--x`, `-abc` is `-a`, `-b`, `-c`. */
function optionName(w: string): string {
  const eq = w.indexOf('=');
  return eq > 0 ? w.slice(0, eq) : w;
}

// git global options that run code or read another repository's configuration and hooks.
const GIT_GLOBAL_RISK = /^(-c.*|--config-env.*|--exec-path=.*|-C.*|--git-dir.*|--work-tree.*|--namespace.*|--super-prefix.*|--attr-source.*)$/;
// Per subcommand: options (or, for `submodule foreach` and `bisect run`, words) that name a program for git to run.
const GIT_SUBCOMMAND_RISK: Record<string, RegExp> = {
  fetch: /^--upload-pack$/, pull: /^(--upload-pack|-s|--strategy|-X|--strategy-option)$/, clone: /^(--upload-pack|-u|--template|--config|-c)$/,
  'ls-remote': /^(--upload-pack|-u|--exec)$/, push: /^(--receive-pack|--exec)$/, archive: /^--exec$/, diff: /^(--ext-diff|--textconv)$/,
  show: /^(--ext-diff|--textconv)$/, log: /^(--ext-diff|--textconv)$/, grep: /^(-O.*|--open-files-in-pager)$/, rebase: /^(-x|--exec)$/,
  difftool: /^(-x|--extcmd|-t|--tool)$/, mergetool: /^(-t|--tool)$/, submodule: /^foreach$/, bisect: /^run$/, blame: /^--textconv$/,
  'cat-file': /^(--textconv|--filters)$/, commit: /^(--template|-t)$/, 'filter-branch': /^/, 'filter-repo': /^/, config: /^(--edit|-e)$/,
};

function gitRisk(args: readonly Word[]): string | undefined {
  let i = 0;
  for (let w = args[i]?.value; w?.startsWith('-'); w = args[++i]?.value) {
    if (GIT_GLOBAL_RISK.test(w)) return `git ${optionName(w)} changes the configuration or repository git runs with`;
    if (/^(--namespace|--super-prefix|--list-cmds)$/.test(w)) i += 1;
  }
  const sub = args[i]?.value;
  const pattern = sub === undefined ? undefined : GIT_SUBCOMMAND_RISK[sub];
  if (!pattern) return undefined;
  if (pattern.source === '^') return `git ${sub} runs commands given to it`;
  const hit = args.slice(i + 1).find((a) => pattern.test(optionName(a.value)));
  return hit ? `git ${sub} ${optionName(hit.value)} runs another program` : undefined;
}

// npm-family configuration set on the command line: every `--key=value` is a config setting, and these run programs.
const NPM_RISK = /^--?(script-shell|shell|userconfig|globalconfig|prefix|C|dir|cwd|node-options|git|editor|browser|viewer|onload-script|init-module|call|c|node-gyp|npm-path|package|registry|global-style|workspaces-update|config|rc|use-node-version|store-dir|virtual-store-dir|modules-dir|global-dir|hooks|pnpmfile|global-pnpmfile|yarn-path|plugin)$/i;
const NPM_FAMILY = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx']);

function npmRisk(name: string, args: readonly Word[]): string | undefined {
  const end = args.findIndex((a) => a.value === '--');
  const own = end < 0 ? args : args.slice(0, end);
  const hit = own.find((a) => NPM_RISK.test(optionName(a.value)));
  return hit ? `${name} ${optionName(hit.value)} changes what ${name} runs` : undefined;
}

/** Per program: options whose value is a program to run or a configuration that names one. */
const OPTION_RISK: Record<string, RegExp> = {
  rsync: /^(-e|--rsh|--rsync-path|-e.+)$/,
  scp: /^(-S|-o|-F|-S.+|-o.+)$/,
  ssh: /^(-o|-F|-o.+|-F.+)$/,
  sftp: /^(-S|-o|-F|-D)$/,
  tar: /^(--to-command|--use-compress-program|-I|--checkpoint-action|--info-script|-F|--new-volume-script|--rsh-command|--rmt-command|-I.+)$/,
  sort: /^(--compress-program)$/,
  less: /^(\+.*|--lesskey-file|--lesskey-src|-k)$/,
  more: /^(\+.*)$/,
  man: /^(-P|--pager|-H|--html|-B|-p|--preprocessor|-C|--config-file|-M|--manpath)$/,
  wget: /^(-e|--execute|--config|--use-askpass)$/,
  curl: /^(-K|--config)$/,
  cargo: /^(--config|-Z)$/,
  make: /^(SHELL=.*|MAKESHELL=.*|-f|--file|--makefile|--eval|-E)$/,
  rg: /^(--pre|--pre-glob|--hostname-bin)$/,
  zip: /^(-TT|--unzip-command|-T)$/,
  dpkg: /.*/,
  awk: /^(-f|--file|-E|--exec|-i|--include|-l|--load)$/,
  sed: /^(-f|--file)$/,
  diff: /^(--diff-program)$/,
  vim: /.*/,
  vi: /.*/,
  nvim: /.*/,
  emacs: /.*/,
};

/** A reason when an option makes the program run something other than what the rule's prefix suggests. */
export function optionRisk(name: string, args: readonly Word[]): string | undefined {
  if (name === 'git') return gitRisk(args);
  if (NPM_FAMILY.has(name)) return npmRisk(name, args);
  const pattern = OPTION_RISK[name];
  if (!pattern) return undefined;
  if (/^(vim|vi|nvim|emacs|dpkg)$/.test(name)) return `${name} can run commands of its own`;
  const hit = args.find((a) => pattern.test(a.value) || pattern.test(optionName(a.value)));
  return hit ? `${name} ${optionName(hit.value)} runs another program or reads a configuration that can` : undefined;
}
