import { baseName, literalWord } from './words.js';
import type { Word } from './words.js';
import { itemAt } from '../../util/invariant.js';

/** What a wrapper adds to the command it runs: environment, files it writes itself, a changed directory. */
export interface WrapperEffects {
  /** `NAME=value` words the wrapper puts in the environment (`env A=1`, `strace -E A=1`). */
  env: Word[];
  /** Files the wrapper itself writes (`/usr/bin/time -o F`, `strace -o F`). */
  writes: string[];
  /** The wrapped command runs in another directory (`env -C`, `sudo -D`). */
  chdir?: boolean;
  /** Arguments are added at run time from input (`xargs`, `parallel`). */
  appends?: boolean;
  /** The string xargs replaces with input (`-I{}`): a command name containing it is computed. */
  replace?: string;
}

/** What is left once one wrapper is looked through. */
export type Unwrapped =
  | { kind: 'command'; words: Word[]; effects: WrapperEffects }
  /** A script bash will parse again (`sh -c`, `eval`, `watch`, `su -c`); `literal` is false when computed. */
  | { kind: 'script'; script: string; literal: boolean; effects: WrapperEffects }
  /** A shell that reads its script from standard input (`bash`, `sh -s`). */
  | { kind: 'stdin-script' }
  /** A shell running a script file (`bash x.sh`, `source x.sh`). */
  | { kind: 'file-script'; path: Word }
  /** A wrapper run in a way cairn cannot follow: what it runs cannot be determined. */
  | { kind: 'opaque'; reason: string }
  | { kind: 'none' };

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'posh', 'rbash']);

interface Spec {
  /** Flags that take the next word as their value. */
  value: string[];
  /** Words after the options and before the command (timeout's duration, flock's file). */
  positionals?: number;
  /** Flags after which there is no command at all (`ionice -p PID`). */
  noCommand?: string[];
  /** Flags whose value is a script (`flock -c`, `su -c`). */
  script?: string[];
  /** Flags whose value is a file the wrapper writes. */
  writes?: string[];
  /** Flags whose value is an environment assignment. */
  env?: string[];
  /** Flags that run the command elsewhere. */
  chdir?: string[];
  /** `NAME=value` words may come before the command (env). */
  assignments?: boolean;
}

const SUDO_LIKE: Spec = {
  value: ['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-D', '--chdir', '-r', '--role', '-t', '--type', '-U', '--other-user', '-T', '--command-timeout'],
  chdir: ['-D', '--chdir'],
  assignments: true,
};

const ENV: Spec = { value: ['-u', '--unset', '-C', '--chdir'], chdir: ['-C', '--chdir'], assignments: true };
const SUDO: Spec = { ...SUDO_LIKE, noCommand: ['-l', '--list', '-v', '--validate', '-k', '-K', '-e', '--edit'] };

const SPECS: Record<string, Spec> = {
  timeout: { value: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  nohup: { value: [] },
  time: { value: ['-f', '--format', '-o', '--output'], writes: ['-o', '--output'] },
  env: ENV,
  exec: { value: ['-a'] },
  builtin: { value: [] },
  stdbuf: { value: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  setsid: { value: [] },
  ionice: { value: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'], noCommand: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  flock: { value: ['-w', '--timeout', '--wait', '-E', '--conflict-exit-code', '-c', '--command'], positionals: 1, script: ['-c', '--command'] },
  chronic: { value: [] },
  unbuffer: { value: [] },
  taskset: { value: [], positionals: 1, noCommand: ['-p', '--pid'] },
  chrt: { value: ['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline'], positionals: 1, noCommand: ['-p', '--pid'] },
  numactl: { value: ['-C', '--physcpubind', '-N', '--cpunodebind', '-m', '--membind', '-i', '--interleave', '-p', '--preferred'] },
  strace: { value: ['-o', '--output', '-e', '-p', '--attach', '-s', '-u', '--user', '-E', '--env', '-P', '-a', '-b', '-I', '-O', '-S', '-X'], writes: ['-o', '--output'], env: ['-E', '--env'], noCommand: ['-p', '--attach'] },
  ltrace: { value: ['-o', '--output', '-e', '-p', '-s', '-u', '-a', '-n', '-A', '-D', '-F', '-l', '-L', '-w'], writes: ['-o', '--output'], noCommand: ['-p'] },
  valgrind: { value: [] },
  caffeinate: { value: ['-t', '-w'] },
  faketime: { value: ['-f', '-m', '-p', '--exclude-monotonic'], positionals: 1 },
  fakeroot: { value: ['-l', '--lib', '--faked', '-s', '-i', '-b'] },
  catchsegv: { value: [] },
  busybox: { value: [] },
  script: { value: ['-c', '--command', '-E', '--echo', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io', '-T', '--log-timing', '-m', '--logging-format'], positionals: 1, script: ['-c', '--command'], writes: ['-O', '--log-out', '-B', '--log-io', '-T', '--log-timing'] },
  toybox: { value: [] },
  sudo: SUDO,
  doas: { value: ['-u', '-C'] },
  pkexec: { value: ['--user'] },
  run0: { value: ['-u', '--user', '-g', '--group', '-D', '--chdir', '--setenv', '--nice', '--slice', '--unit', '--property', '-M', '--machine', '--description'], chdir: ['-D', '--chdir'] },
};

const noEffects = (): WrapperEffects => ({ env: [], writes: [] });

function flagName(w: string): string {
  const eq = w.indexOf('=');
  return w.startsWith('--') && eq > 0 ? w.slice(0, eq) : w;
}

/** Looks through a wrapper described by a spec: its options, its fixed positionals, then the command. */
function unwrapBySpec(words: Word[], spec: Spec, name: string): Unwrapped {
  const effects = noEffects();
  let i = 1;
  for (; i < words.length; i++) {
    const word = itemAt(words, i, 'word');
    const w = word.value;
    if (!word.literal) return { kind: 'opaque', reason: `the options of ${name} are computed at run time` };
    if (w === '--') {
      i += 1;
      break;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
      effects.env.push(word);
      continue;
    }
    if (!w.startsWith('-') || w === '-') break;
    const flag = flagName(w);
    // Short flags may carry their value attached (`-o0`, `-uroot`); long ones after `=`.
    const attached = flag !== w ? w.slice(flag.length + 1) : undefined;
    const short = !w.startsWith('--') && w.length > 2 && spec.value.includes(w.slice(0, 2)) ? w.slice(0, 2) : undefined;
    const key = short ?? flag;
    const takesValue = spec.value.includes(key);
    const value = short ? w.slice(2) : (attached ?? (takesValue ? words[i + 1]?.value : undefined));
    if (takesValue && !short && attached === undefined) i += 1;
    if (spec.noCommand?.includes(key)) return { kind: 'none' };
    if (value !== undefined && spec.script?.includes(key)) {
      const scriptWord = short || attached !== undefined ? word : words[i];
      return { kind: 'script', script: value, literal: scriptWord?.literal ?? false, effects };
    }
    if (value !== undefined && spec.writes?.includes(key)) effects.writes.push(value);
    if (value !== undefined && spec.env?.includes(key)) effects.env.push(literalWord(value));
    if (spec.chdir?.includes(key)) effects.chdir = true;
  }
  i += spec.positionals ?? 0;
  // `flock FILE -c CMD`: the script flag may follow the positional.
  const after = words[i];
  if (after && spec.script?.includes(after.value)) {
    const script = words[i + 1];
    return script ? { kind: 'script', script: script.value, literal: script.literal, effects } : { kind: 'none' };
  }
  return i < words.length ? { kind: 'command', words: words.slice(i), effects } : { kind: 'none' };
}

const NICE_VALUE = /^-n?-?\d+$|^--adjustment=/;

function unwrapNice(words: Word[]): Unwrapped {
  let i = 1;
  for (let w = words[i]?.value; w !== undefined; w = words[i]?.value) {
    if (w === '-n' || w === '--adjustment') i += 2;
    else if (NICE_VALUE.test(w)) i += 1;
    else if (w === '--') return rest(words, i + 1);
    else if (w.startsWith('-')) return { kind: 'opaque', reason: `nice is given the unknown option ${w}` };
    else break;
  }
  return rest(words, i);
}

function rest(words: Word[], from: number, effects: WrapperEffects = noEffects()): Unwrapped {
  return from < words.length ? { kind: 'command', words: words.slice(from), effects } : { kind: 'none' };
}

function unwrapCommand(words: Word[]): Unwrapped {
  let i = 1;
  for (let w = words[i]?.value; w?.startsWith('-'); w = words[++i]?.value) {
    if (w === '--') return rest(words, i + 1);
    if (/[vV]/.test(w)) return { kind: 'none' }; // `command -v x` only looks x up
    if (!/^-p+$/.test(w)) return { kind: 'opaque', reason: `command is given the unknown option ${w}` };
  }
  return rest(words, i);
}

const XARGS_VALUE = new Set(['-n', '-I', '-P', '-d', '-L', '-s', '-E', '-a', '-e', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-chars', '--replace', '--max-lines', '--eof', '--process-slot-var']);

function unwrapXargs(words: Word[]): Unwrapped {
  const effects: WrapperEffects = { ...noEffects(), appends: true };
  let i = 1;
  for (; i < words.length; i++) {
    const word = itemAt(words, i, 'word');
    const w = word.value;
    if (!word.literal) return { kind: 'opaque', reason: 'the options of xargs are computed at run time' };
    if (w === '--') {
      i += 1;
      break;
    }
    if (!w.startsWith('-') || w === '-') break;
    // -I R (or -IR), -i[R] and --replace[=R] set the text replaced by each input line.
    if (w.startsWith('-I')) {
      effects.replace = w.length > 2 ? w.slice(2) : words[++i]?.value;
      continue;
    }
    if (w.startsWith('-i') || w.startsWith('--replace')) {
      const eq = w.indexOf('=');
      effects.replace = w.startsWith('--') ? (eq > 0 ? w.slice(eq + 1) : '{}') : w.length > 2 ? w.slice(2) : '{}';
      continue;
    }
    if (XARGS_VALUE.has(w)) i += 1;
  }
  return rest(words, i, effects);
}

/** `watch CMD ARGS` runs `sh -c "CMD ARGS"`; `watch -x` runs the words themselves. */
function unwrapWatch(words: Word[]): Unwrapped {
  let i = 1;
  let exec = false;
  for (let w = words[i]?.value; w?.startsWith('-'); w = words[++i]?.value) {
    if (w === '--') {
      i += 1;
      break;
    }
    if (w === '-x' || w === '--exec') exec = true;
    else if (w === '-n' || w === '--interval' || w === '-q' || w === '--equexit') i += 1;
  }
  const cmd = words.slice(i);
  if (cmd.length === 0) return { kind: 'none' };
  if (exec) return rest(words, i);
  return { kind: 'script', script: cmd.map((w) => w.value).join(' '), literal: cmd.every((w) => w.literal), effects: noEffects() };
}

const SHELL_VALUE = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

function unwrapShell(words: Word[]): Unwrapped {
  for (let i = 1; i < words.length; i++) {
    const word = itemAt(words, i, 'word');
    const w = word.value;
    if (!word.literal) return { kind: 'opaque', reason: 'the options of the shell are computed at run time' };
    const next = words[i + 1];
    if (w === '--' || w === '-') return next ? { kind: 'file-script', path: next } : { kind: 'stdin-script' };
    if (!/^[-+]/.test(w)) return { kind: 'file-script', path: word };
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(w)) {
      const script = words[i + 1];
      if (script?.value.startsWith('-')) return { kind: 'opaque', reason: `${w} is followed by another option` };
      return script ? { kind: 'script', script: script.value, literal: script.literal, effects: noEffects() } : { kind: 'none' };
    }
    if (/^-[a-zA-Z]*s[a-zA-Z]*$/.test(w)) return { kind: 'stdin-script' };
    if (SHELL_VALUE.has(w)) i += 1;
  }
  return { kind: 'stdin-script' };
}

function unwrapEnv(words: Word[]): Unwrapped {
  const split = words.findIndex((w, i) => i > 0 && (w.value === '-S' || w.value.startsWith('-S') || w.value.startsWith('--split-string')));
  const flag = words[split];
  if (!flag) return unwrapBySpec(words, ENV, 'env');
  const inline = flag.value.startsWith('--split-string=') ? flag.value.slice(15) : flag.value.length > 2 && !flag.value.startsWith('--') ? flag.value.slice(2) : undefined;
  const text = inline ?? words[split + 1]?.value;
  // env -S has its own quoting and `${VAR}` rules: only plain words split the same way bash would.
  if (text === undefined || !flag.literal || !/^[\w\s./=:,+@%-]*$/.test(text)) return { kind: 'opaque', reason: 'env -S splits a string with its own rules' };
  const after = words.slice(split + (inline === undefined ? 2 : 1));
  const spliced = [...words.slice(0, split), ...text.split(/\s+/).filter((s) => s !== '').map(literalWord), ...after];
  return unwrapBySpec(spliced, ENV, 'env');
}

function unwrapSudoLike(words: Word[], name: string): Unwrapped {
  const inner = unwrapBySpec(words, SUDO, name);
  // `sudo -s CMD` / `sudo -i CMD` run CMD through a shell.
  const shellFlag = words.slice(1).find((w) => /^-[a-zA-Z]*[si]$/.test(w.value) && !w.value.startsWith('--'));
  if (inner.kind === 'command' && shellFlag && name === 'sudo') {
    return { kind: 'script', script: inner.words.map((w) => w.value).join(' '), literal: inner.words.every((w) => w.literal), effects: inner.effects };
  }
  return inner;
}

/** `su [user] -c CMD` takes its options in any order; without -c it starts a shell on standard input. */
function unwrapSu(words: Word[]): Unwrapped {
  const at = words.findIndex((w, i) => i > 0 && /^(-c|--command|-C|--session-command)$/.test(w.value));
  const inline = words.find((w) => /^--(session-)?command=/.test(w.value));
  if (inline) return { kind: 'script', script: inline.value.replace(/^--(session-)?command=/, ''), literal: inline.literal, effects: noEffects() };
  const script = at > 0 ? words[at + 1] : undefined;
  return script ? { kind: 'script', script: script.value, literal: script.literal, effects: noEffects() } : { kind: 'stdin-script' };
}

/** Looks through one wrapper if the command starts with one. */
export function unwrapOnce(words: Word[]): Unwrapped {
  const first = words[0];
  if (!first || !first.literal) return { kind: 'none' };
  const name = baseName(first.value);
  if (name === 'nice') return unwrapNice(words);
  if (name === 'command') return unwrapCommand(words);
  if (name === 'xargs') return unwrapXargs(words);
  if (name === 'watch') return unwrapWatch(words);
  if (name === 'env') return unwrapEnv(words);
  if (name === 'sudo') return unwrapSudoLike(words, name);
  if (name === 'time' && words[1]?.value === '-p') return rest(words, 2);
  if (name === 'eval') {
    const args = words.slice(1);
    return args.length > 0 ? { kind: 'script', script: args.map((w) => w.value).join(' '), literal: args.every((w) => w.literal), effects: noEffects() } : { kind: 'none' };
  }
  if (name === 'source' || name === '.') return words[1] ? { kind: 'file-script', path: words[1] } : { kind: 'none' };
  if (name === 'parallel') return { kind: 'opaque', reason: 'parallel builds the commands it runs from its input' };
  if (name === 'coproc') return rest(words, 1);
  if (name === 'fish' || name === 'csh' || name === 'tcsh' || name === 'nu' || name === 'pwsh' || name === 'elvish' || name === 'xonsh') {
    return words.length > 1 ? { kind: 'opaque', reason: `${name} scripts are not bash, so cairn cannot read them` } : { kind: 'stdin-script' };
  }
  if (name === 'su' || name === 'runuser') return unwrapSu(words);
  if (SHELLS.has(name)) return unwrapShell(words);
  const spec = SPECS[name];
  if (!spec) return { kind: 'none' };
  const inner = unwrapBySpec(words, spec, name);
  // Without -c, `script` starts a shell that reads its commands from standard input.
  if (name === 'script' && inner.kind !== 'script') return { kind: 'stdin-script' };
  return inner;
}
