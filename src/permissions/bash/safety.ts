import { posix } from 'node:path';
import type { BuiltinDenyRule } from '../rules/builtin-deny.js';
import { baseName } from './words.js';
import type { Word } from './words.js';

// Targets whose recursive removal wipes the machine, the home directory or the whole workspace.
const RM_CATASTROPHIC = new Set(['/', '/*', '~', '~/*', '.', './*', '..', '../*', '*', '.*', '$HOME', '$HOME/*']);

// Devices that are not disks: writing to them is harmless.
const SAFE_DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|full|random|urandom|fd\/\d+|pts\/\d+)$/;
const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|loop|dm-|md\d|sr\d|mapper\/)/;

/** Programs that run commands as another user: the built-in `sudo` rule denies them all. */
export const ELEVATE = new Set(['sudo', 'sudoedit', 'doas', 'su', 'pkexec', 'run0', 'runuser']);

function normalizeTarget(target: string): string {
  let t = target.replace(/^\$\{HOME\}/, '$HOME');
  if (t.startsWith('/')) t = posix.normalize(t);
  // `rm -rf ./` and `rm -rf ~/` mean the directory itself.
  if (t.length > 1 && t.endsWith('/')) t = t.replace(/\/+$/, '') || '/';
  if (t.startsWith('./') && t !== './*') t = posix.normalize(t);
  return t;
}

/** Whether a word bash computes at run time could turn into an option (`$f` = `-rf`, a file named `-rf` matched by `*`). */
function couldBeOption(w: Word): boolean {
  if (w.literal) return false;
  // `-r{,}` and `-{r,f}` are options whatever they expand to; `*` may match a file named `-rf`.
  if (w.glob) return w.value.startsWith('-') || (/^[*?[{]/.test(w.value) && !/[./]/.test(w.value));
  return /^[$`]/.test(w.value);
}

/** Whether rm is recursive: 'yes', 'maybe' (its options are computed at run time), or 'no'. */
export function rmRecursion(args: readonly Word[], appends: boolean): { recursive: 'yes' | 'maybe' | 'no'; targets: string[] } {
  const targets: string[] = [];
  let recursive: 'yes' | 'maybe' | 'no' = 'no';
  let optionsDone = false;
  for (const arg of args) {
    const a = arg.value;
    if (!optionsDone && a === '--') optionsDone = true;
    // GNU rm takes any unambiguous prefix of --recursive (`--rec`), and options after the file names.
    else if (!optionsDone && arg.literal && /^--r/.test(a) && '--recursive'.startsWith(a)) recursive = 'yes';
    else if (!optionsDone && arg.literal && /^-[a-zA-Z]+$/.test(a)) recursive = /[rR]/.test(a) ? 'yes' : recursive;
    else if (!optionsDone && arg.literal && a.startsWith('--')) continue;
    else {
      if (!optionsDone && recursive === 'no' && couldBeOption(arg)) recursive = 'maybe';
      targets.push(a);
    }
  }
  if (appends && !optionsDone && recursive === 'no') recursive = 'maybe';
  return { recursive, targets };
}

function dangerousRm(args: readonly Word[]): string | undefined {
  const { recursive, targets } = rmRecursion(args, false);
  if (recursive !== 'yes') return undefined;
  const bad = targets.find((t) => RM_CATASTROPHIC.has(normalizeTarget(t)));
  return bad === undefined ? undefined : `recursive rm of ${bad}`;
}

/** Whether writing to this redirect destination or dd output would overwrite a disk. */
export function isBlockDevice(path: string): boolean {
  return !SAFE_DEVICES.test(path) && BLOCK_DEVICE.test(path);
}

/** A reason when one simple command is too dangerous to ever run, whatever the rules and settings. */
export function dangerousCommand(words: readonly Word[]): string | undefined {
  const first = words[0];
  if (!first) return undefined;
  const name = baseName(first.value);
  const args = words.slice(1);
  if (name === 'rm') return dangerousRm(args);
  if (name.startsWith('mkfs') || name === 'mke2fs') return `${name} formats a filesystem`;
  if (name === 'dd') {
    const out = args.find((a) => a.value.startsWith('of=/dev/') && !SAFE_DEVICES.test(a.value.slice(3)));
    if (out) return `dd writes to the device ${out.value.slice(3)}`;
  }
  return undefined;
}

export interface BuiltinHit {
  id: BuiltinDenyRule['id'];
  /** The command as the analysis read it, and why it falls under the rule. */
  detail: string;
}

/** The built-in deny rules one simple command (at any level of wrapping) falls under. */
export function builtinHits(words: readonly Word[], appends: boolean): BuiltinHit[] {
  const first = words[0];
  if (!first) return [];
  const name = baseName(first.value);
  const text = words.map((w) => w.value).join(' ');
  if (ELEVATE.has(name)) return [{ id: 'sudo', detail: `${text}: ${name} runs commands as another user` }];
  if (name !== 'rm') return [];
  const { recursive } = rmRecursion(words.slice(1), appends);
  if (recursive === 'yes') return [{ id: 'recursive-rm', detail: `${text}: a recursive rm` }];
  if (recursive === 'maybe') {
    return [{ id: 'recursive-rm', detail: `${text}: rm's options are computed at run time and could make it recursive (put -- before computed file names)` }];
  }
  return [];
}

// Interpreters whose inline code cairn cannot parse, and the calls in it that are a recursive delete or run as root.
const INTERPRETERS = /^(python[\d.]*|node|nodejs|deno|bun|perl|ruby|php|lua[\d.]*|awk|gawk|mawk|nawk|Rscript|tclsh|osascript|pwsh)$/;
const HIDDEN_RECURSIVE = /\brm\s+(-[a-zA-Z]*[rR]|--rec)|rmtree|rm_rf|rm_r\b|remove_tree|rmSync|rmdirSync|\brimraf|recursive\s*[:=]\s*true|Remove-Item[^;]*-Recurse/;
const HIDDEN_ELEVATE = /\b(sudo|doas|pkexec|run0)\b/;

/**
 * A best-effort look into code given to an interpreter (`python -c`, `node -e`, `awk '...system()...'`):
 * a model told that `rm -rf` is denied must not get round the rule by asking python to do it.
 */
export function interpreterHits(name: string, args: readonly Word[]): BuiltinHit[] {
  if (!INTERPRETERS.test(name)) return [];
  const code = args.filter((a) => a.literal).map((a) => a.value).join('\n').slice(0, 64 * 1024);
  if (HIDDEN_ELEVATE.test(code)) return [{ id: 'sudo', detail: `${name} is given code that runs commands as another user` }];
  if (HIDDEN_RECURSIVE.test(code)) return [{ id: 'recursive-rm', detail: `${name} is given code that deletes recursively` }];
  return [];
}

/**
 * The classic `:(){ :|:& };:` and its renamed cousins, as a text fallback for scripts that do not parse.
 * A scan rather than one regular expression with a back-reference, which is quadratic on long hostile input.
 */
export function looksLikeForkBomb(script: string): boolean {
  const definition = /\(\s*\)\s*\{/g;
  for (let m = definition.exec(script); m; m = definition.exec(script)) {
    // Names and bodies are looked at over a bounded window, so many definitions stay linear.
    let start = m.index;
    while (start > 0 && m.index - start < 64 && !/[\s;&|(){}]/.test(script.charAt(start - 1))) start -= 1;
    const name = script.slice(start, m.index).trim();
    const window = script.slice(m.index + m[0].length, m.index + m[0].length + 256);
    const body = window.slice(0, window.includes('}') ? window.indexOf('}') : undefined).replace(/\s+/g, '');
    if (name !== '' && body.includes(`${name}|${name}&`)) return true;
  }
  return false;
}
