import { sedScriptRisk } from './sed.js';
import type { Word } from './words.js';

/**
 * Programs whose arguments can be code: awk programs call system() and pipe to commands, sed scripts
 * have `e` and `w`, sqlite3 has `.shell` and writefile(), vim runs `-c` commands, make reads other
 * makefiles. A prefix rule `Bash(awk:*)` means "run awk on my files", not "run whatever the awk program
 * runs": these forms get a risk, so they need approval each time.
 */

/** Whether a word bash computes at run time could turn into an option (`$opt`, or `*` matching a file named `-i`). */
function mayBeOption(w: Word): boolean {
  if (w.literal) return false;
  return w.glob ? /^[*?[{]/.test(w.value) : /^[$`]/.test(w.value);
}

/** Long option names a word may abbreviate (GNU getopt accepts any unambiguous prefix): `--fil` is `--file`. */
function abbreviates(word: string, names: readonly string[]): string | undefined {
  const name = word.slice(2).split('=')[0] ?? '';
  return name.length === 0 ? undefined : names.find((n) => n.startsWith(name));
}

// awk (POSIX, mawk, gawk): options whose value is a file of code, a library, or a file written.
const AWK_NAMES = /^(awk|gawk|mawk|nawk|original-awk)$/;
const AWK_RISKY_LONG = ['file', 'exec', 'include', 'load', 'dump-variables', 'debug', 'pretty-print', 'profile'];
const AWK_VALUE_LONG = ['field-separator', 'assign'];

/** What an awk program does beyond reading its input and printing: a best-effort look that errs towards asking. */
export function awkProgramRisk(code: string): string | undefined {
  if (/\bsystem\b/.test(code)) return 'the awk program calls system()';
  if (code.replace(/\|\|/g, '').includes('|')) return 'the awk program pipes to or from a command';
  if (code.includes('@')) return 'the awk program loads an extension or calls a function by name';
  const print = code.search(/\bprintf?\b/);
  if (print >= 0 && code.slice(print).includes('>')) return 'the awk program may write a file with print >';
  const getline = code.search(/\bgetline\b/);
  if (getline >= 0 && code.slice(getline).includes('<')) return 'the awk program may read a file with getline <';
  return undefined;
}

function awkRisk(name: string, args: readonly Word[]): string | undefined {
  const programs: Word[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i];
    if (!word) break;
    const a = word.value;
    if (a === '--') {
      i += 1;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (a.startsWith('--')) {
      const long = abbreviates(a, ['source', ...AWK_RISKY_LONG, ...AWK_VALUE_LONG, 'sandbox']);
      if (long === 'source') {
        const value = a.includes('=') ? { ...word, value: a.slice(a.indexOf('=') + 1) } : args[++i];
        if (value) programs.push(value);
      } else if (long && AWK_RISKY_LONG.includes(long)) return `${name} --${long} runs or writes files the rule does not name`;
      else if (long && AWK_VALUE_LONG.includes(long) && !a.includes('=')) i += 1;
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a.charAt(k);
      if ('fEildDopW'.includes(c)) return `${name} -${c} runs, loads or writes files the rule does not name`;
      if (c === 'e' || c === 'F' || c === 'v' || c === 'L') {
        const rest = a.slice(k + 1);
        const value = rest !== '' ? { ...word, value: rest } : args[++i];
        if (c === 'e' && value) programs.push(value);
        break;
      }
    }
  }
  if (programs.length === 0) {
    const program = args[i];
    if (!program) return `${name} gets its program from arguments cairn cannot see`;
    programs.push(program);
  }
  for (const p of programs) {
    if (!p.literal) return `the ${name} program is computed at run time`;
    const why = awkProgramRisk(p.value);
    if (why) return why;
  }
  return undefined;
}

const SED_LONG = ['expression', 'file', 'in-place', 'line-length', 'sandbox', 'quiet', 'silent', 'debug', 'follow-symlinks', 'posix', 'regexp-extended', 'separate', 'unbuffered', 'null-data', 'zero-terminated', 'binary', 'help', 'version'];

function sedRisk(args: readonly Word[]): string | undefined {
  const scripts: Word[] = [];
  const operands: Word[] = [];
  let sandbox = false;
  // GNU sed takes options anywhere before `--`, so every argument is looked at.
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (!word) break;
    const a = word.value;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (mayBeOption(word)) return `sed's argument ${a} is computed at run time and could be an option`;
    if (!a.startsWith('-') || a === '-') {
      operands.push(word);
      continue;
    }
    if (a.startsWith('--')) {
      const long = abbreviates(a, SED_LONG);
      if (long === 'in-place') return 'sed --in-place rewrites files';
      if (long === 'file') return 'sed --file runs a script file the rule does not name';
      // Only an unambiguous spelling: sed refuses `--s`, and a risky option read as --sandbox would hide the script.
      if (long === 'sandbox' && SED_LONG.filter((n) => n.startsWith(a.slice(2).split('=')[0] ?? '')).length === 1) sandbox = true;
      if (long === 'expression' || long === 'line-length') {
        const value = a.includes('=') ? { ...word, value: a.slice(a.indexOf('=') + 1) } : args[++i];
        if (long === 'expression' && value) scripts.push(value);
      }
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a.charAt(k);
      if (c === 'i') return 'sed -i rewrites files';
      if (c === 'f') return 'sed -f runs a script file the rule does not name';
      if (c === 'e' || c === 'l') {
        const rest = a.slice(k + 1);
        const value = rest !== '' ? { ...word, value: rest } : args[++i];
        if (c === 'e' && value) scripts.push(value);
        break;
      }
    }
  }
  if (scripts.length === 0) {
    const script = operands[0];
    if (!script) return 'sed gets its script from arguments cairn cannot see';
    scripts.push(script);
  }
  if (scripts.some((s) => !s.literal)) return 'the sed script is computed at run time';
  // With --sandbox, GNU sed refuses e, w and r.
  return sandbox ? undefined : sedScriptRisk(scripts.map((s) => s.value).join('\n'));
}

// sqlite3's dot-commands that only show or format: every other one (.shell, .system, .output, .once, .load, .import, .read...) asks.
const SQLITE_QUIET = new Set([
  'tables', 'schema', 'indexes', 'indices', 'headers', 'header', 'mode', 'separator', 'nullvalue', 'width', 'databases', 'show', 'help',
  'timer', 'changes', 'echo', 'bail', 'print', 'stats', 'eqp', 'explain', 'fullschema', 'dbinfo', 'limit', 'parameter', 'quit', 'exit', 'dump', 'timeout', 'version',
]);
const SQLITE_VALUE = new Set(['cmd', 'init', 'separator', 'newline', 'nullvalue', 'vfs', 'mmap', 'heap', 'maxsize', 'nonce', 'escape', 'pagecache', 'lookaside']);
// SQL functions and statements of the sqlite3 shell that run programs, load code or touch other files.
const SQLITE_RISKY_SQL = /\b(load_extension|writefile|readfile|edit|fts3_tokenizer|attach|zipfile|sqlar_\w+|lsdir|fsdir)\b|\bvacuum\b[^;]*\binto\b/i;

/** Why one sqlite3 statement or dot-command does more than query the database, or undefined. */
export function sqliteStatementRisk(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const dot = /^\s*\.([A-Za-z_]*)/.exec(line);
    if (dot && !SQLITE_QUIET.has(dot[1] ?? '')) return `sqlite3 .${dot[1] ?? ''} can run programs or reach files the rule does not name`;
  }
  const sql = SQLITE_RISKY_SQL.exec(text);
  return sql ? `sqlite3 ${sql[1] ?? 'vacuum into'} can run code or reach files the rule does not name` : undefined;
}

function sqliteRisk(args: readonly Word[]): string | undefined {
  const statements: Word[] = [];
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (!word) break;
    const a = word.value;
    if (mayBeOption(word)) return `sqlite3's argument ${a} is computed at run time and could be an option`;
    if (a.startsWith('-') && a.length > 1) {
      const option = a.replace(/^--?/, '');
      if (option === 'init') return 'sqlite3 -init runs a script file the rule does not name';
      if (option === 'A' || option.startsWith('A')) return 'sqlite3 -A works on archive files the rule does not name';
      if (option === 'interactive') return 'sqlite3 -interactive reads commands cairn cannot see';
      if (option === 'cmd') {
        const value = args[++i];
        if (value) statements.push(value);
      } else if (SQLITE_VALUE.has(option)) i += option === 'pagecache' || option === 'lookaside' ? 2 : 1;
      continue;
    }
    // The first operand is the database, the rest are statements.
    if (positionals++ > 0) statements.push(word);
  }
  if (positionals < 2) return 'sqlite3 reads its commands from its input, which cairn cannot see';
  for (const s of statements) {
    if (!s.literal) return 'a sqlite3 statement is computed at run time';
    const why = sqliteStatementRisk(s.value);
    if (why) return why;
  }
  return undefined;
}

// make: options that read another makefile or directory's makefile, or add recipes of their own.
const MAKE_RISKY_LONG = ['file', 'makefile', 'eval', 'directory', 'include-dir'];
// Variables that name the programs recipes run, or other makefiles to read.
const MAKE_PROGRAM_VARS = /^(SHELL|MAKESHELL|\.SHELLFLAGS|MAKEFILES|MAKEFLAGS|MFLAGS|GNUMAKEFLAGS|MAKE|CC|CXX|CPP|FC|LD|AR|AS|RM|CP|MV|LN|INSTALL|M4|LEX|YACC|PYTHON\d*|PERL|NODE|NPM|GO|CARGO|DOCKER|\w*_?(CMD|COMMAND|PROG|PROGRAM|EXE))$/;

function makeRisk(args: readonly Word[]): string | undefined {
  for (const word of args) {
    const a = word.value;
    if (mayBeOption(word)) return `make's argument ${a} is computed at run time and could be an option`;
    if (a.startsWith('--')) {
      const long = abbreviates(a, MAKE_RISKY_LONG);
      if (long) return `make --${long} runs a makefile or recipe other than the workspace's own`;
      continue;
    }
    if (a.startsWith('-')) {
      for (const c of a.slice(1)) {
        if ('fCIE'.includes(c)) return `make -${c} runs a makefile or recipe other than the workspace's own`;
        if ('jlOoW'.includes(c)) break; // the rest of the word is the option's value
      }
      continue;
    }
    const assignment = /^([^=:+?!\s]+)\s*(::?=|:::=|\+=|\?=|!=|=)(.*)$/s.exec(a);
    if (!assignment) continue;
    const [, name = '', op, value = ''] = assignment;
    if (op === '!=') return `make ${name}!= runs a shell command`;
    if (MAKE_PROGRAM_VARS.test(name)) return `make ${name}=... changes the programs the recipes run`;
    if (!/^[\w.,:/@%+-]*$/.test(value)) return `make ${name}=${value} puts text the recipes may run as commands`;
  }
  return undefined;
}

// The vi family: every one runs `-c`/`+` commands, `-S` scripts, its vimrc and `:!` commands.
const VIM_NAMES = /^(vim|vi|nvim|ex|view|vimdiff|rvim|rview|gvim|gview|gvimdiff|evim|eview|vimx|nvi|elvis|emacs|emacsclient)$/;

/** A reason when the arguments of this program are code cairn does not read, or undefined. */
export function codeRisk(name: string, args: readonly Word[], appends: boolean): string | undefined {
  const known = AWK_NAMES.test(name) || VIM_NAMES.test(name) || name === 'sed' || name === 'sqlite3' || name === 'make' || name === 'gmake' || name === 'git';
  // xargs adds arguments cairn cannot see: for these programs they can be options, scripts or statements.
  if (known && appends) return `the arguments xargs adds to ${name} can make it run code`;
  if (AWK_NAMES.test(name)) return awkRisk(name, args);
  if (VIM_NAMES.test(name)) return `${name} can run commands of its own`;
  switch (name) {
    case 'sed':
      return sedRisk(args);
    case 'sqlite3':
      return sqliteRisk(args);
    case 'make':
    case 'gmake':
      return makeRisk(args);
    default:
      return undefined;
  }
}
