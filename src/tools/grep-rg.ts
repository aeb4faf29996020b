import fs from 'node:fs/promises';
import path from 'node:path';
import { looksBinary, readHead } from './binary.js';
import type { GitignoreFilter } from './gitignore.js';
import { GrepSearch, INTERRUPTED, type FileHits } from './grep-search.js';
import { displayPath, isInside } from './paths.js';
import { isFileReadDenied } from './read-deny.js';
import { runRipgrep, type RgRecord } from './ripgrep-run.js';
import { concurrencyLimit } from '../util/concurrency-limit.js';
import { compareWalkOrder, ignoredAbove, relFromRg, rgWalkArgs, type RgWalkOptions } from './ripgrep-walk.js';
import type { SearchMode } from './regex-worker.js';
import type { ToolContext, ToolResult } from './tool.js';

export interface RgGrepRequest {
  readonly bin: string;
  /** The pattern in ripgrep's syntax (js-regex-to-rust.ts), and as the user wrote it for the few symlinked files. */
  readonly rustPattern: string;
  readonly jsPattern: string;
  readonly flags: string;
  readonly mode: SearchMode;
  readonly maxResults: number;
  readonly maxLineChars: number;
  readonly maxFileBytes: number;
  readonly timeoutMs: number;
  readonly target: string;
  readonly realTarget: string;
  readonly ctx: ToolContext;
  /** The caller's glob, relative to target, and a ripgrep glob letting through at least what it accepts. */
  readonly glob?: { readonly accepts: (rel: string) => boolean; readonly hint?: string };
  readonly filter: GitignoreFilter;
  readonly useIgnore: boolean;
  readonly skipNodeModules: boolean;
}

export type RgGrepOutcome =
  /** ripgrep could not run or refused the pattern: search in JavaScript instead. */
  | { kind: 'fallback'; reason: string }
  | { kind: 'stop'; result: ToolResult }
  | { kind: 'done'; files: FileHits[]; matchCount: number; denied: number; outsideLinks: number };

interface Found extends FileHits {
  rel: string;
}

/** Whether a file found under target is kept: the caller's glob, and the ignore rules ripgrep could not see. */
type Keep = (rel: string) => Promise<boolean>;

function modeArgs(mode: SearchMode, maxResults: number): string[] {
  if (mode === 'lines') return ['--line-number', '--with-filename', '--no-heading', '--max-count', String(maxResults + 1)];
  return mode === 'count' ? ['--count'] : ['--files-with-matches'];
}

/** Whether enough has been found, by the same test the JavaScript walk uses to stop. */
function enough(mode: SearchMode, files: number, matches: number, max: number): boolean {
  return (mode === 'lines' && matches > max) || files > max;
}

/** The files in walk order up to the one that makes enough (that one kept), as the JavaScript walk stops. */
function cutInWalkOrder<T extends Found>(files: T[], mode: SearchMode, max: number): { kept: T[]; matchCount: number; reached: boolean } {
  const kept: T[] = [];
  let matchCount = 0;
  for (const f of files) {
    kept.push(f);
    matchCount += f.count;
    if (enough(mode, kept.length, matchCount, max)) return { kept, matchCount, reached: true };
  }
  return { kept, matchCount, reached: false };
}

/**
 * How far past the cap ripgrep's parallel search may run before it gives way to the sorted one, which stops at
 * the cut. Up to twice the cap the parallel search is run to its end: its wall time is then at most the sorted
 * search's to the cut (half the tree on two threads against at least half of it on one). Past that, it stops and
 * the sorted search runs, so a capped search never takes longer than the sorted search of the whole tree.
 */
function parallelLimit(max: number): number {
  return max + Math.min(max, 100_000);
}

/** Files checked at once (ignore rules above the root, and the first 8 KB read for the binary test) while ripgrep searches in parallel. */
const FILE_CHECKS_AT_ONCE = 16;

type Pass =
  | { kind: 'found'; files: Found[]; stoppedAt: string | undefined; symlinks: string[] }
  /** The parallel search found more than enough: run again in walk order, stopping at the cut. */
  | { kind: 'sort' }
  | Exclude<RgGrepOutcome, { kind: 'done' }>;

/**
 * The grep tool's directory search on ripgrep, giving what the JavaScript walk in grep.ts gives: files in walk
 * order, binary files (a NUL in the first 8 KB) and files over the size limit skipped, denied files left out
 * and counted, symlinks followed only where the search may read anyway (ripgrep follows none; the few it
 * passes over are read here), and the search stopped at the same point. ripgrep searches on all its threads
 * and the results are put in walk order here; only when they pass the cap by far (parallelLimit) does it search
 * again in walk order (`--sort path`, one thread) to stop where the cut falls: which files come first is not
 * known before all have been searched.
 */
export async function grepWithRipgrep(req: RgGrepRequest): Promise<RgGrepOutcome> {
  const { ctx, target } = req;
  const above = req.useIgnore ? await ignoredAbove(req.filter, ctx.cwd, target) : undefined;
  const keep: Keep = async (rel) => (!req.glob || req.glob.accepts(rel)) && !(above && (await above(path.join(target, rel))));
  const denied = ctx.isReadDenied;
  const isDenied = (rel: string): boolean =>
    denied !== undefined && (denied(path.join(target, rel)) || (req.realTarget !== target && denied(path.join(req.realTarget, rel))));
  // Denied files are counted among every file searched, matching or not: a second walk lists them (only when rules exist).
  const deniedFound = denied ? listDenied(req, keep, isDenied) : Promise.resolve([]);

  let pass = await searchPass(req, keep, isDenied, false);
  if (pass.kind === 'sort') pass = await searchPass(req, keep, isDenied, true);
  if (pass.kind !== 'found') return pass.kind === 'sort' ? { kind: 'fallback', reason: 'the sorted search did not finish' } : pass;
  const { stoppedAt } = pass;

  const before = (rel: string): boolean => stoppedAt === undefined || compareWalkOrder(rel, stoppedAt) < 0;
  const links = await searchSymlinks(req, pass.symlinks.map(relFromRg).filter(before), keep);
  if ('result' in links) return { kind: 'stop', result: links.result };
  const merged = links.files.length === 0 ? pass.files : [...pass.files, ...links.files].sort((a, b) => compareWalkOrder(a.rel, b.rel));
  // The same cut the JavaScript walk makes, now that the symlinked files are in their places; what was left out
  // or skipped is counted up to that cut, which a symlinked file may have brought forward.
  const { kept, matchCount, reached } = cutInWalkOrder(merged, req.mode, req.maxResults);
  const cutAt = reached ? kept.at(-1)?.rel : undefined;
  const beforeCut = (rel: string): boolean => cutAt === undefined || compareWalkOrder(rel, cutAt) < 0;
  const deniedCount = [...(await deniedFound), ...links.denied].filter(beforeCut).length;
  return { kind: 'done', files: kept, matchCount, denied: deniedCount, outsideLinks: links.outside.filter(beforeCut).length };
}

function walkOptions(req: RgGrepRequest, sorted: boolean): Omit<RgWalkOptions, 'symlinks'> {
  return { useIgnore: req.useIgnore, skipNodeModules: req.skipNodeModules, globHint: req.glob?.hint, sorted };
}

/**
 * One ripgrep search. In walk order it stops at the file that makes enough, as the JavaScript walk does. In
 * parallel it stops when ripgrep's own count (files and lines as they come, before the binary, ignore and deny
 * checks) passes parallelLimit, and the sorted search is needed; else its files are put in walk order and cut.
 */
async function searchPass(req: RgGrepRequest, keep: Keep, isDenied: (rel: string) => boolean, sorted: boolean): Promise<Pass> {
  const { ctx, target } = req;
  const args = [
    ...rgWalkArgs({ ...walkOptions(req, sorted), symlinks: true }),
    '--null',
    '--text', // binary files are told apart below, by the JavaScript walk's test
    '--encoding',
    'none', // a BOM stays part of the first line, as in JavaScript
    '--crlf', // a line's \r is not part of it, as in JavaScript
    '--max-filesize',
    String(req.maxFileBytes),
    ...modeArgs(req.mode, req.maxResults),
    '--regexp',
    req.rustPattern,
    '--',
    '.',
  ];
  const run = runRipgrep(req.bin, args, { cwd: target, signal: ctx.signal, withValue: req.mode !== 'any' });
  const files: Found[] = [];
  let cut = false;
  const kept = async (found: Found): Promise<boolean> => {
    if (cut || ctx.signal.aborted || !(await keep(found.rel)) || isDenied(found.rel)) return false;
    try {
      return !looksBinary(await readHead(path.join(target, found.rel)));
    } catch {
      return false; // vanished or unreadable: skipped, like grep -s
    }
  };
  // In parallel the files are checked as they come, a few at a time, without holding up ripgrep's output: the
  // decision to search again in walk order needs only ripgrep's own count. In walk order each check decides the stop.
  const checking: Promise<void>[] = [];
  const limited = concurrencyLimit(FILE_CHECKS_AT_ONCE);
  const counted = { files: 0, matches: 0 };
  const limit = sorted ? req.maxResults : parallelLimit(req.maxResults);
  /** Takes a file's hits when kept; whether the search can stop there. */
  const finish = async (found: Found): Promise<boolean> => {
    if (!sorted) checking.push(limited(() => kept(found)).then((yes) => void (yes && files.push(found))));
    else if (await kept(found)) files.push(found);
    else return false;
    counted.files++;
    counted.matches += found.count;
    return enough(req.mode, counted.files, counted.matches, limit);
  };
  // Each file's records come together, in walk order or (searching in parallel) as each file is done.
  let current: Found | undefined;
  for await (const record of run.records()) {
    const rel = relFromRg(record.path);
    if (current?.rel !== rel) {
      if (current && (await finish(current))) {
        current = undefined;
        cut = true;
        run.stop();
        break;
      }
      current = { rel, shown: displayPath(ctx.cwd, path.join(target, rel)), count: 0, lines: [] };
    }
    addRecord(current, record, req);
  }
  if (current) await finish(current);
  const outcome = await run.done;
  await Promise.all(checking);
  if (ctx.signal.aborted) return { kind: 'stop', result: INTERRUPTED };
  if (outcome.code === -1 || (outcome.code === 2 && outcome.errors.length > 0)) return { kind: 'fallback', reason: outcome.errors.join('; ') };
  if (!sorted && cut) return { kind: 'sort' };
  // In parallel ripgrep searched everything: the files are put in walk order. Either way, cut as the JavaScript walk cuts.
  if (!sorted) files.sort((a, b) => compareWalkOrder(a.rel, b.rel));
  const inOrder = cutInWalkOrder(files, req.mode, req.maxResults);
  return { kind: 'found', files: inOrder.kept, stoppedAt: inOrder.reached ? inOrder.kept.at(-1)?.rel : undefined, symlinks: [...outcome.symlinks] };
}

/** One record of ripgrep's output added to its file's hits. */
function addRecord(found: Found, record: RgRecord, req: RgGrepRequest): void {
  if (req.mode === 'any') found.count = 1;
  else if (req.mode === 'count') found.count = Number(record.value?.toString('latin1') ?? '0');
  else {
    const value = record.value ?? Buffer.alloc(0);
    const colon = value.indexOf(58);
    let text = value.toString('utf8', colon + 1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    found.lines.push({ no: Number(value.toString('latin1', 0, colon)), text: text.length > req.maxLineChars + 1 ? text.slice(0, req.maxLineChars + 1) : text });
    found.count++;
  }
}

/** The files a Read deny rule leaves out of the search, listed by ripgrep (regular files; symlinks are counted apart). */
async function listDenied(req: RgGrepRequest, keep: Keep, isDenied: (rel: string) => boolean): Promise<string[]> {
  const run = runRipgrep(req.bin, [...rgWalkArgs({ ...walkOptions(req, false), symlinks: false }), '--files', '--null', '--', '.'], {
    cwd: req.target,
    signal: req.ctx.signal,
    withValue: false,
  });
  const out: string[] = [];
  for await (const record of run.records()) {
    const rel = relFromRg(record.path);
    if (isDenied(rel) && (await keep(rel))) out.push(rel);
  }
  await run.done;
  return out;
}

/**
 * Symlinks the walk passed over, treated as the JavaScript walk treats them: left out when denied (by name or by
 * where they lead), skipped and counted when they lead outside the workspace and the search root, else read and
 * searched with the JavaScript regex (they are few).
 */
async function searchSymlinks(
  req: RgGrepRequest,
  links: string[],
  keep: Keep,
): Promise<{ files: Found[]; denied: string[]; outside: string[] } | { result: ToolResult }> {
  const result = { files: [] as Found[], denied: [] as string[], outside: [] as string[] };
  if (links.length === 0) return result;
  const { ctx, target } = req;
  const search = new GrepSearch({
    pattern: req.jsPattern,
    flags: req.flags,
    mode: req.mode,
    maxLines: req.maxResults,
    maxLineChars: req.maxLineChars,
    timeoutMs: req.timeoutMs,
    signal: ctx.signal,
  });
  const relOf = new Map<string, string>();
  try {
    for (const rel of links.sort(compareWalkOrder)) {
      if (!(await keep(rel))) continue;
      const file = path.join(target, rel);
      if (await isFileReadDenied(ctx, file)) {
        result.denied.push(rel);
        continue;
      }
      let data: Buffer;
      try {
        const real = await fs.realpath(file);
        if (!isInside(ctx.cwd, real) && !isInside(req.realTarget, real)) {
          result.outside.push(rel);
          continue;
        }
        if ((await fs.stat(file)).size > req.maxFileBytes) continue;
        data = await fs.readFile(file);
      } catch {
        continue; // dangling, a directory, or unreadable: skipped as the JavaScript walk skips it
      }
      const shown = displayPath(ctx.cwd, file);
      relOf.set(shown, rel);
      const stop = await search.addSmall(shown, data);
      if (stop) return { result: stop };
    }
    const stop = await search.flush();
    if (stop) return { result: stop };
  } finally {
    search.close();
  }
  result.files = search.files.map((f) => ({ ...f, rel: relOf.get(f.shown) ?? f.shown }));
  return result;
}
