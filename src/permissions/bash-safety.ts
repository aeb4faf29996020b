import { posix } from 'node:path';
import { baseName } from './bash-words.js';
import type { Word } from './bash-words.js';

// Targets whose recursive removal wipes the machine, the home directory or the whole workspace.
const RM_CATASTROPHIC = new Set(['/', '/*', '~', '~/*', '.', './*', '..', '../*', '*', '.*', '$HOME', '$HOME/*']);

// Devices that are not disks: writing to them is harmless.
const SAFE_DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|full|random|urandom|fd\/\d+|pts\/\d+)$/;
const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|loop|dm-|md\d|sr\d|mapper\/)/;

function normalizeTarget(target: string): string {
  let t = target.replace(/^\$\{HOME\}/, '$HOME');
  if (t.startsWith('/')) t = posix.normalize(t);
  // `rm -rf ./` and `rm -rf ~/` mean the directory itself.
  if (t.length > 1 && t.endsWith('/')) t = t.replace(/\/+$/, '') || '/';
  if (t.startsWith('./') && t !== './*') t = posix.normalize(t);
  return t;
}

function dangerousRm(args: Word[]): string | undefined {
  let recursive = false;
  const targets: string[] = [];
  let flagsDone = false;
  for (const arg of args) {
    const a = arg.value;
    if (!flagsDone && a === '--') flagsDone = true;
    else if (!flagsDone && a === '--recursive') recursive = true;
    else if (!flagsDone && /^-[a-zA-Z]+$/.test(a)) recursive ||= /[rR]/.test(a);
    else if (!flagsDone && a.startsWith('--')) continue;
    else targets.push(a);
  }
  if (!recursive) return undefined;
  const bad = targets.find((t) => RM_CATASTROPHIC.has(normalizeTarget(t)));
  return bad === undefined ? undefined : `recursive rm of ${bad}`;
}

/** Whether writing to this redirect destination or dd output would overwrite a disk. */
export function isBlockDevice(path: string): boolean {
  return !SAFE_DEVICES.test(path) && BLOCK_DEVICE.test(path);
}

/** A reason when one simple command (wrappers already looked through or not) is too dangerous to ever run. */
export function dangerousCommand(words: Word[]): string | undefined {
  const first = words[0];
  if (!first) return undefined;
  const name = baseName(first.value);
  const args = words.slice(1);
  if (name === 'sudo' || name === 'doas') return `${name} runs commands as another user`;
  if (name === 'rm') return dangerousRm(args);
  if (name.startsWith('mkfs') || name === 'mke2fs') return `${name} formats a filesystem`;
  if (name === 'dd') {
    const out = args.find((a) => a.value.startsWith('of=/dev/') && !SAFE_DEVICES.test(a.value.slice(3)));
    if (out) return `dd writes to the device ${out.value.slice(3)}`;
  }
  return undefined;
}

// The classic `:(){ :|:& };:` and its renamed cousins, as a text fallback for scripts that do not parse.
const FORK_BOMB_TEXT = /(\S+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/;

export function looksLikeForkBomb(script: string): boolean {
  return FORK_BOMB_TEXT.test(script);
}
