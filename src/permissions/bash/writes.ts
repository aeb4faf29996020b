import { literalWord } from './words.js';
import type { Word } from './words.js';
import { itemAt } from '../../util/invariant.js';

/** What a program (already looked through its wrappers) writes. */
export interface WriteFacts {
  /** Output files named by options (`sort -o F`, `--output=F`, `tee F`): judged as write_file would be. */
  writes: Word[];
  /** Files the program changes, creates or removes (`cp`'s destination, `rm`'s targets). */
  changes: Word[];
  /** Files whose contents it carries elsewhere (`cp`'s sources): reads, for Read deny rules. */
  reads?: Word[];
  /** A reason when it writes files whose names cairn cannot know (an archive's contents, a patch's files). */
  risk?: string;
}

/** Programs that only change the files they are given: they run nothing else and read no configuration that could. */
export const FILE_ONLY = new Set([
  'tee', 'cp', 'mv', 'ln', 'install', 'touch', 'mkdir', 'rm', 'rmdir', 'unlink', 'truncate', 'shred', 'chmod', 'chown', 'chgrp', 'dd',
  'sort', 'uniq', 'sed', 'mkfifo', 'mknod', 'tar', 'zip', 'unzip', 'gzip', 'gunzip', 'xz', 'bzip2', 'split', 'csplit', 'xxd',
]);

function optionName(w: string): string {
  const eq = w.indexOf('=');
  return eq > 0 && w.startsWith('--') ? w.slice(0, eq) : w;
}

/** Splits arguments into options and positionals; `valueFlags` consume the next word. */
function split(args: readonly Word[], valueFlags: readonly string[] = []): { positionals: Word[]; values: Map<string, Word[]> } {
  const positionals: Word[] = [];
  const values = new Map<string, Word[]>();
  const add = (k: string, v: Word): void => void values.set(k, [...(values.get(k) ?? []), v]);
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const a = itemAt(args, i, 'argument');
    const next = args[i + 1];
    if (done || !a.value.startsWith('-') || a.value === '-') positionals.push(a);
    else if (a.value === '--') done = true;
    else {
      const flag = optionName(a.value);
      if (flag !== a.value) add(flag, { ...a, value: a.value.slice(flag.length + 1) });
      else if (valueFlags.includes(flag) && next) {
        add(flag, next);
        i++;
      }
      else {
        const short = valueFlags.find((f) => f.length === 2 && !a.value.startsWith('--') && a.value.startsWith(f) && a.value.length > 2);
        if (short) add(short, { ...a, value: a.value.slice(2) });
        else add(flag, literalWord(''));
      }
    }
  }
  return { positionals, values };
}

const get = (values: Map<string, Word[]>, ...flags: string[]): Word[] => flags.flatMap((f) => values.get(f) ?? []).filter((w) => w.value !== '');
const has = (values: Map<string, Word[]>, ...flags: string[]): boolean => flags.some((f) => values.has(f));

/** `cp`/`mv`/`ln`/`install`: the destination is `-t DIR` or the last positional. */
function destination(args: readonly Word[], valueFlags: string[]): { dest: Word[]; sources: Word[] } {
  const { positionals, values } = split(args, ['-t', '--target-directory', '-S', '--suffix', ...valueFlags]);
  const target = get(values, '-t', '--target-directory');
  if (target.length > 0) return { dest: target, sources: positionals };
  const last = positionals.at(-1);
  if (positionals.length < 2 || !last) return { dest: positionals.length === 1 ? [literalWord('.')] : [], sources: positionals };
  return { dest: [last], sources: positionals.slice(0, -1) };
}

function urlFileName(url: string): Word {
  const path = url.replace(/[?#].*$/, '').replace(/^[a-z]+:\/\/[^/]*/i, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  return literalWord(name === '' ? 'index.html' : name);
}

const WORKTREE_WRITERS = /^(checkout|switch|restore|reset|merge|pull|rebase|cherry-pick|revert|am|stash|read-tree|checkout-index)$/;

function gitWrites(args: readonly Word[]): WriteFacts {
  const sub = args.find((a) => !a.value.startsWith('-'))?.value;
  const { positionals, values } = split(args, ['-o', '--output', '-f', '--file', '--output-directory']);
  const writes = get(values, '--output');
  if (sub === 'format-patch' || sub === 'archive') writes.push(...get(values, '-o', '--output-directory'));
  const changes: Word[] = [];
  if (sub === 'config') {
    const reading = has(values, '--get', '--get-all', '--get-regexp', '-l', '--list', '--show-origin', '--name-only');
    if (!reading && positionals.length >= 3 || has(values, '--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section')) {
      const file = get(values, '-f', '--file')[0];
      changes.push(file ?? literalWord(has(values, '--global') ? '~/.gitconfig' : has(values, '--system') ? '/etc/gitconfig' : '.git/config'));
    }
  }
  // Subcommands that rewrite files in the working tree: a program run after them may read what they wrote.
  if (sub !== undefined && WORKTREE_WRITERS.test(sub) && !(sub === 'stash' && !/^(pop|apply)$/.test(positionals[1]?.value ?? ''))) changes.push(literalWord('.'));
  const risk = sub === 'apply' && !has(values, '--check', '--stat', '--numstat', '--summary') ? 'git apply changes the files named in the patch' : undefined;
  return { writes, changes, ...(risk ? { risk } : {}) };
}

function sedWrites(args: readonly Word[]): WriteFacts {
  const inPlace = args.some((a) => a.value === '--in-place' || a.value.startsWith('--in-place=') || (/^-[a-zA-Z]*i/.test(a.value) && !a.value.startsWith('--')));
  if (!inPlace) return { writes: [], changes: [] };
  const { positionals, values } = split(args, ['-e', '--expression', '-f', '--file', '-l', '--line-length']);
  const scriptGiven = has(values, '-e', '--expression', '-f', '--file');
  return { writes: [], changes: scriptGiven ? positionals : positionals.slice(1) };
}

function tarWrites(args: readonly Word[]): WriteFacts {
  const first = args[0]?.value ?? '';
  const cluster = first.startsWith('-') ? first.slice(1) : first;
  const extract = /^[a-zA-Z]*x/.test(cluster) && !first.startsWith('--') || args.some((a) => /^(-x|--extract|--get)$/.test(a.value));
  const create = /^[a-zA-Z]*[cru]/.test(cluster) && !first.startsWith('--') || args.some((a) => /^(-c|--create|-r|--append|-u|--update)$/.test(a.value));
  const fIndex = args.findIndex((a) => /^-[a-zA-Z]*f$/.test(a.value) || a.value === '--file');
  const file = args.find((a) => a.value.startsWith('--file='))?.value.slice(7) ?? (fIndex >= 0 ? args[fIndex + 1]?.value : undefined) ??
    (/f/.test(cluster) && !first.startsWith('-') ? args[1]?.value : undefined);
  if (extract) return { writes: [], changes: [], risk: 'tar extracts files whose names come from the archive' };
  return { writes: create && file !== undefined && file !== '-' ? [literalWord(file)] : [], changes: [] };
}

/** What a program writes, from its arguments. */
export function writeFacts(name: string, args: readonly Word[]): WriteFacts {
  switch (name) {
    case 'git':
      return gitWrites(args);
    case 'tee':
      return { writes: split(args).positionals, changes: [] };
    case 'sort':
      return { writes: get(split(args, ['-o', '--output', '-k', '-t', '-S', '-T']).values, '-o', '--output'), changes: [] };
    case 'uniq':
    case 'xxd': {
      const { positionals } = split(args, name === 'uniq' ? ['-f', '-s', '-w'] : ['-c', '-g', '-l', '-s', '-o', '-n', '-C']);
      return { writes: positionals.slice(1, 2), changes: [] };
    }
    case 'dd':
      return { writes: args.filter((a) => a.value.startsWith('of=')).map((a) => ({ ...a, value: a.value.slice(3) })), changes: [] };
    case 'tree':
      return { writes: get(split(args, ['-o', '-L', '-P', '-I']).values, '-o'), changes: [] };
    case 'curl': {
      const { positionals, values } = split(args, ['-o', '--output', '-d', '--data', '-H', '--header', '-X', '--request', '-u', '--user', '-A', '-e', '-T', '-F', '-b', '-c', '--cookie-jar', '-D', '--dump-header', '--trace', '--trace-ascii', '--stderr']);
      const remote = has(values, '-O', '--remote-name', '--remote-name-all') ? positionals.filter((p) => /^[a-z]+:\/\//i.test(p.value)).map((p) => urlFileName(p.value)) : [];
      return { writes: [...get(values, '-o', '--output', '-c', '--cookie-jar', '-D', '--dump-header', '--trace', '--trace-ascii', '--stderr'), ...remote], changes: [] };
    }
    case 'wget': {
      const { positionals, values } = split(args, ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix', '-e', '--execute']);
      const out = get(values, '-O', '--output-document', '-o', '--output-file', '-a', '--append-output');
      const named = get(values, '-O', '--output-document').length > 0 ? [] : positionals.map((p) => urlFileName(p.value));
      const dir = get(values, '-P', '--directory-prefix')[0];
      return { writes: [...out, ...named.map((n) => (dir ? { ...n, value: `${dir.value}/${n.value}` } : n))], changes: [] };
    }
    case 'cp':
    case 'install': {
      const { dest, sources } = destination(args, ['-m', '--mode', '-o', '--owner', '-g', '--group']);
      return { writes: [], changes: dest, reads: sources };
    }
    case 'mv': {
      const { dest, sources } = destination(args, []);
      return { writes: [], changes: [...dest, ...sources], reads: sources };
    }
    case 'ln':
      return { writes: [], changes: destination(args, []).dest };
    case 'touch':
    case 'mkdir':
    case 'rm':
    case 'rmdir':
    case 'unlink':
    case 'shred':
    case 'mkfifo':
      return { writes: [], changes: split(args, ['-m', '--mode', '-d', '--date', '-r', '--reference', '-t', '-n', '--iterations', '-s', '--size']).positionals };
    case 'truncate':
      return { writes: [], changes: split(args, ['-s', '--size', '-r', '--reference']).positionals };
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      const { positionals, values } = split(args, ['--reference', '--from']);
      return { writes: [], changes: has(values, '--reference') ? positionals : positionals.slice(1) };
    }
    case 'sed':
      return sedWrites(args);
    case 'tar':
      return tarWrites(args);
    case 'unzip':
    case 'cpio':
    case 'patch':
    case '7z':
    case 'bsdtar': {
      const listing = args.some((a) => /^(-l|-v|-t|-Z|-p|--list|--dry-run|-i|--check|l|t)$/.test(a.value)) && name !== 'cpio';
      return listing ? { writes: [], changes: [] } : { writes: [], changes: [], risk: `${name} writes files whose names come from its input` };
    }
    case 'npm':
      if (args[0]?.value === 'pkg' && /^(set|delete|fix)$/.test(args[1]?.value ?? '')) return { writes: [], changes: [literalWord('package.json')] };
      if (args[0]?.value === 'config' && /^(set|delete|edit)$/.test(args[1]?.value ?? '')) return { writes: [], changes: [literalWord('~/.npmrc')] };
      return { writes: [], changes: [] };
    default:
      return { writes: [], changes: [] };
  }
}
