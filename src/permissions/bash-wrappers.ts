import { baseName } from './bash-words.js';
import type { Word } from './bash-words.js';

/** What is left once one wrapper is looked through: the wrapped command, or a script to parse again. */
export type Unwrapped = { kind: 'command'; words: Word[] } | { kind: 'script'; script: string } | { kind: 'none' };

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

// Flags that take a separate value, per wrapper; everything else starting with '-' stands alone.
const TIMEOUT_VALUE_FLAGS = new Set(['-s', '-k', '--signal', '--kill-after']);
const ENV_VALUE_FLAGS = new Set(['-u', '--unset', '-C', '--chdir']);
const XARGS_VALUE_FLAGS = new Set(['-n', '-I', '-P', '-d', '-L', '-s', '-E', '-a', '-e', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-chars', '--replace']);

function skipFlags(words: Word[], start: number, valueFlags: Set<string>): number {
  let i = start;
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === '--') return i + 1;
    if (!w.startsWith('-') || w === '-') return i;
    i += valueFlags.has(w) ? 2 : 1;
  }
  return i;
}

function rest(words: Word[], from: number): Unwrapped {
  return from < words.length ? { kind: 'command', words: words.slice(from) } : { kind: 'none' };
}

function unwrapTimeout(words: Word[]): Unwrapped {
  const i = skipFlags(words, 1, TIMEOUT_VALUE_FLAGS);
  return rest(words, i + 1); // the duration
}

function unwrapNice(words: Word[]): Unwrapped {
  let i = 1;
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === '-n' || w === '--adjustment') i += 2;
    else if (/^-n?-?\d+$/.test(w) || w.startsWith('--adjustment=')) i += 1;
    else break;
  }
  return rest(words, i);
}

function unwrapEnv(words: Word[]): Unwrapped {
  let i = 1;
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === '-S' || w.startsWith('--split-string')) return { kind: 'none' }; // env -S re-splits a string: too clever to look through
    if (w === '-' || (w.startsWith('-') && !w.includes('='))) i += ENV_VALUE_FLAGS.has(w) ? 2 : 1;
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i += 1;
    else break;
  }
  return rest(words, i);
}

function unwrapCommand(words: Word[]): Unwrapped {
  const first = words[1]?.value;
  if (first === '-p') return rest(words, 2);
  if (first === undefined || first.startsWith('-')) return { kind: 'none' }; // `command -v x` only looks x up
  return rest(words, 1);
}

function unwrapXargs(words: Word[]): Unwrapped {
  let i = 1;
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === '--') {
      i += 1;
      break;
    }
    if (!w.startsWith('-')) break;
    i += XARGS_VALUE_FLAGS.has(w) ? 2 : 1;
  }
  return rest(words, i);
}

function unwrapShell(words: Word[]): Unwrapped {
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (!w.value.startsWith('-')) return { kind: 'none' }; // `bash script.sh`: a script we cannot see
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value)) {
      const script = words[i + 1];
      return script ? { kind: 'script', script: script.value } : { kind: 'none' };
    }
    if (w.value === '-o' || w.value === '+o') i += 1;
  }
  return { kind: 'none' };
}

/** Looks through one wrapper (timeout, nice, nohup, time, env, command, xargs, sh -c, eval) if the command starts with one. */
export function unwrapOnce(words: Word[]): Unwrapped {
  const first = words[0];
  if (!first || !first.literal) return { kind: 'none' };
  const name = baseName(first.value);
  if (name === 'timeout') return unwrapTimeout(words);
  if (name === 'nice') return unwrapNice(words);
  if (name === 'nohup') return rest(words, 1);
  if (name === 'time') return rest(words, words[1]?.value === '-p' ? 2 : 1);
  if (name === 'env') return unwrapEnv(words);
  if (name === 'command') return unwrapCommand(words);
  if (name === 'xargs') return unwrapXargs(words);
  if (name === 'eval') return words.length > 1 ? { kind: 'script', script: words.slice(1).map((w) => w.value).join(' ') } : { kind: 'none' };
  if (SHELLS.has(name)) return unwrapShell(words);
  return { kind: 'none' };
}
