import fs from 'node:fs/promises';
import path from 'node:path';
import { looksBinary, readHead } from './binary.js';
import type { GitignoreFilter } from './gitignore.js';
import { GrepSearch, INTERRUPTED, type FileHits } from './grep-search.js';
import { displayPath, isInside } from './paths.js';
import { isFileReadDenied } from './read-deny.js';
import { runRipgrep, type RgRecord } from './ripgrep-run.js';
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

/**
 * The grep tool's directory search on ripgrep, giving what the JavaScript walk in grep.ts gives: files in walk
 * order, binary files (a NUL in the first 8 KB) and files over the size limit skipped, denied files left out
 * and counted, symlinks followed only where the search may read anyway (ripgrep follows none; the few it
 * passes over are read here), and the search stopped at the same point.
 */
export async function grepWithRipgrep(req: RgGrepRequest): Promise<RgGrepOutcome> {
  const { ctx, target } = req;
  const above = req.useIgnore ? await ignoredAbove(req.filter, ctx.cwd, target) : undefined;
  const keep: Keep = async (rel) => (!req.glob || req.glob.accepts(rel)) && !(above && (await above(path.join(target, rel))));
  const denied = ctx.isReadDenied;
  const isDenied = (rel: string): boolean =>
    denied !== undefined && (denied(path.join(target, rel)) || (req.realTarget !== target && denied(path.join(req.realTarget, rel))));
  const walk: Omit<RgWalkOptions, 'symlinks'> = { useIgnore: req.useIgnore, skipNodeModules: req.skipNodeModules, globHint: req.glob?.hint, sorted: true };
  const args = [
    ...rgWalkArgs({ ...walk, symlinks: true }),
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
  // Denied files are counted among every file searched, matching or not: a second walk lists them (only when rules exist).
  const deniedFound = denied ? listDenied(req, walk, keep, isDenied) : Promise.resolve([]);

  const files: Found[] = [];
  let matchCount = 0;
  let stoppedAt: string | undefined;
  let current: Found | undefined;
  const finish = async (found: Found): Promise<boolean> => {
    if (!(await keep(found.rel)) || isDenied(found.rel)) return false;
    try {
      if (looksBinary(await readHead(path.join(target, found.rel)))) return false;
    } catch {
      return false; // vanished or unreadable: skipped, like grep -s
    }
    files.push(found);
    matchCount += found.count;
    return enough(req.mode, files.length, matchCount, req.maxResults);
  };
  const take = (record: RgRecord): Found => {
    const rel = relFromRg(record.path);
    const found: Found = current?.rel === rel ? current : { rel, shown: displayPath(ctx.cwd, path.join(target, rel)), count: 0, lines: [] };
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
    return found;
  };
  for await (const record of run.records()) {
    const found = take(record);
    if (found === current) continue;
    if (current && (await finish(current))) {
      stoppedAt = current.rel;
      current = undefined;
      run.stop();
      break;
    }
    current = found;
  }
  if (current && stoppedAt === undefined && (await finish(current))) stoppedAt = current.rel;
  const outcome = await run.done;
  if (ctx.signal.aborted) return { kind: 'stop', result: INTERRUPTED };
  if (outcome.code === -1 || (outcome.code === 2 && outcome.errors.length > 0)) return { kind: 'fallback', reason: outcome.errors.join('; ') };

  const before = (rel: string): boolean => stoppedAt === undefined || compareWalkOrder(rel, stoppedAt) < 0;
  const links = await searchSymlinks(req, outcome.symlinks.map(relFromRg).filter(before), keep);
  if ('result' in links) return { kind: 'stop', result: links.result };
  const merged = links.files.length === 0 ? files : [...files, ...links.files].sort((a, b) => compareWalkOrder(a.rel, b.rel));
  // The same cut the JavaScript walk makes, now that the symlinked files are in their places.
  const kept: Found[] = [];
  matchCount = 0;
  for (const f of merged) {
    kept.push(f);
    matchCount += f.count;
    if (enough(req.mode, kept.length, matchCount, req.maxResults)) break;
  }
  const deniedCount = (await deniedFound).filter(before).length + links.denied;
  return { kind: 'done', files: kept, matchCount, denied: deniedCount, outsideLinks: links.outside };
}

/** The files a Read deny rule leaves out of the search, listed by ripgrep (regular files; symlinks are counted apart). */
async function listDenied(req: RgGrepRequest, walk: Omit<RgWalkOptions, 'symlinks'>, keep: Keep, isDenied: (rel: string) => boolean): Promise<string[]> {
  const run = runRipgrep(req.bin, [...rgWalkArgs({ ...walk, symlinks: false }), '--files', '--null', '--', '.'], {
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
): Promise<{ files: Found[]; denied: number; outside: number } | { result: ToolResult }> {
  const result = { files: [] as Found[], denied: 0, outside: 0 };
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
        result.denied++;
        continue;
      }
      let data: Buffer;
      try {
        const real = await fs.realpath(file);
        if (!isInside(ctx.cwd, real) && !isInside(req.realTarget, real)) {
          result.outside++;
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
