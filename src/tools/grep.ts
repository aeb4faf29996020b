import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { GitignoreFilter } from './gitignore.js';
import { gitignoreApplies } from './glob.js';
import { tryCompileGlob } from './glob-match.js';
import { displayPath, resolveInWorkspace } from './paths.js';
import { deniedNote, isFileReadDenied } from './read-deny.js';
import { GrepSearch, type FileHits } from './grep-search.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';
import { MAX_GREP_FILE_BYTES, walkAndSearch, type DirectoryHits, type DirectorySearch } from './grep-walk.js';
import { grepWithRipgrep } from './grep-rg.js';
import { jsRegexToRust } from './js-regex-to-rust.js';
import type { SearchMode } from './regex-worker.js';
import { ripgrepPath } from './ripgrep-path.js';
import { globHint } from './ripgrep-walk.js';
import { errorMessage } from '../util/error-message.js';

export const MAX_GREP_RESULTS = 250;
/** With a large-output saver: results are kept up to these bounds and the saver files them. */
export const SAVED_GREP_RESULTS = 1_000_000;
export const SAVED_GREP_CHARS = 16 * 1024 * 1024;
export { MAX_GREP_FILE_BYTES };
/** How long one block of up to 1 MB of lines may take before the pattern is judged to be backtracking without end. */
export const DEFAULT_REGEX_TIMEOUT_MS = 5000;
const MAX_MATCH_LINE_CHARS = 500;

const inputSchema = z.object({
  pattern: z.string().describe('JavaScript regular expression to search for, matched line by line.'),
  path: z
    .string()
    .optional()
    .describe('File or directory to search (default: the workspace root).'),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{js,jsx}".'),
  case_insensitive: z.boolean().optional().describe('Ignore case (default false).'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      '"files_with_matches" (default) lists matching files; "content" shows matching lines as path:line:text; "count" shows matches per file.',
    ),
});

export type GrepInput = z.infer<typeof inputSchema>;

const description = (limits: Limits): string => `Search file contents with a JavaScript regular expression, line by line.
- output_mode "files_with_matches" (default) lists files; "content" shows path:line:text; "count" shows per-file counts.
- Narrow with path and glob (e.g. glob "*.ts"). Use case_insensitive for case-blind search. Escape regex metacharacters for literal text (e.g. "foo\\(").
- Skips .git, node_modules (unless path points into it), .gitignored files, binary files and files over 1 MB. ${limits.results > MAX_GREP_RESULTS ? 'A result too large for the context is saved to a file; page through it with read_file.' : `At most ${limits.results} results.`}
- A pattern that backtracks for more than ${DEFAULT_REGEX_TIMEOUT_MS / 1000} s on a file is stopped: keep patterns simple (no nested quantifiers like (a+)+).
- Prefer this over running grep or rg through bash.`;

type Mode = NonNullable<GrepInput['output_mode']>;

export interface GrepOptions {
  readonly regexTimeoutMs?: number;
  /**
   * Matching lines (or files) returned at most, default MAX_GREP_RESULTS. Raised (to
   * SAVED_GREP_RESULTS) where a large-output saver files what is too big for the context.
   */
  readonly maxResults?: number;
  /** Characters returned at most (a bound on memory when maxResults is raised). */
  readonly maxChars?: number;
}

interface Limits {
  results: number;
  chars: number;
}

/** The first rows within the limits; capped when some were left out. */
function within(rows: string[], limits: Limits): { body: string; capped: boolean } {
  let chars = 0;
  let n = 0;
  for (; n < rows.length && n < limits.results; n++) {
    chars += (rows[n]?.length ?? 0) + 1;
    if (chars > limits.chars) break;
  }
  return { body: rows.slice(0, n).join('\n'), capped: n < rows.length };
}

function clip(line: string): string {
  return line.length > MAX_MATCH_LINE_CHARS ? `${line.slice(0, MAX_MATCH_LINE_CHARS)}… [truncated]` : line;
}

function render(mode: Mode, files: FileHits[], limits: Limits): { body: string; capped: boolean } {
  if (mode === 'content') return within(files.flatMap((f) => f.lines.map((l) => `${f.shown}:${l.no}:${clip(l.text)}`)), limits);
  return within(files.map((f) => (mode === 'count' ? `${f.shown}:${f.count}` : f.shown)), limits);
}

function searchMode(mode: Mode): SearchMode {
  return mode === 'content' ? 'lines' : mode === 'count' ? 'count' : 'any';
}

function newSearch(input: GrepInput, flags: string, mode: Mode, limits: Limits, timeoutMs: number, ctx: ToolContext): GrepSearch {
  return new GrepSearch({
    pattern: input.pattern,
    flags,
    mode: searchMode(mode),
    maxLines: limits.results,
    maxLineChars: MAX_MATCH_LINE_CHARS,
    timeoutMs,
    signal: ctx.signal,
  });
}

/**
 * The directory search on ripgrep when there is a binary and the pattern means the same to it (see
 * js-regex-to-rust.ts); undefined to search in JavaScript instead.
 */
async function searchWithRipgrep(
  input: GrepInput,
  flags: string,
  mode: Mode,
  limits: Limits,
  timeoutMs: number,
  ctx: ToolContext,
  where: DirectorySearch,
): Promise<DirectoryHits | ToolResult | undefined> {
  const bin = await ripgrepPath();
  const rustPattern = bin === undefined ? undefined : jsRegexToRust(input.pattern, flags === 'i');
  if (bin === undefined || rustPattern === undefined) return undefined;
  const outcome = await grepWithRipgrep({
    bin,
    rustPattern,
    jsPattern: input.pattern,
    flags,
    mode: searchMode(mode),
    maxResults: limits.results,
    maxLineChars: MAX_MATCH_LINE_CHARS,
    maxFileBytes: MAX_GREP_FILE_BYTES,
    timeoutMs,
    ctx,
    target: where.target,
    realTarget: where.realTarget,
    glob: where.matchesGlob && { accepts: where.matchesGlob, hint: globHint(input.glob) },
    filter: where.filter,
    useIgnore: where.useIgnore,
    skipNodeModules: where.skipNodeModules,
  });
  if (outcome.kind === 'fallback') return undefined;
  if (outcome.kind === 'stop') return outcome.result;
  return { ...outcome, partly: [] };
}

async function runGrep(input: GrepInput, ctx: ToolContext, timeoutMs: number, limits: Limits): Promise<ToolResult> {
  const flags = input.case_insensitive ? 'i' : '';
  try {
    new RegExp(input.pattern, flags); // compiling is linear; only matching can run away
  } catch (err) {
    return errorResult(`Invalid regular expression ${JSON.stringify(input.pattern)}: ${errorMessage(err)}`);
  }
  const mode: Mode = input.output_mode ?? 'files_with_matches';
  const target = resolveInWorkspace(ctx.cwd, input.path ?? '.');
  const shownTarget = displayPath(ctx.cwd, target);
  let stat;
  try {
    stat = await fs.stat(target);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return errorResult(`No such file or directory: ${shownTarget}`);
    return errorResult(fsErrorMessage(err, shownTarget));
  }

  let found: DirectoryHits;
  if (!stat.isDirectory()) {
    if (await isFileReadDenied(ctx, target)) return errorResult(`${shownTarget} is covered by a Read deny rule; it cannot be searched.`);
    const search = newSearch(input, flags, mode, limits, timeoutMs, ctx);
    try {
      const stop = await search.searchFile(target, shownTarget);
      if (stop) return stop;
    } finally {
      search.close();
    }
    found = { files: search.files, matchCount: search.matchCount, partly: search.partly, denied: 0, outsideLinks: 0 };
  } else {
    const filter = new GitignoreFilter(ctx.cwd);
    const useIgnore = await gitignoreApplies(filter, ctx.cwd, target);
    const glob = input.glob === undefined ? undefined : tryCompileGlob(input.glob);
    if (glob && 'error' in glob) return errorResult(glob.error);
    // A glob without a slash matches the file name at any depth, like rg -g.
    const onName = input.glob !== undefined && !input.glob.includes('/');
    const matchesGlob = glob && ((rel: string): boolean => glob.match(onName ? path.posix.basename(rel) : rel));
    const where: DirectorySearch = {
      target,
      realTarget: await fs.realpath(target),
      filter,
      useIgnore,
      matchesGlob,
      // Searching inside node_modules is fine when asked for; otherwise it is noise.
      skipNodeModules: !target.split(path.sep).includes('node_modules'),
    };
    const fast = await searchWithRipgrep(input, flags, mode, limits, timeoutMs, ctx, where);
    if (fast && 'content' in fast) return fast;
    const walked = fast ?? (await walkAndSearch(newSearch(input, flags, mode, limits, timeoutMs, ctx), mode === 'content', limits.results, ctx, where));
    if ('content' in walked) return walked;
    found = walked;
  }
  const { files, matchCount, partly, denied, outsideLinks } = found;

  const notes: string[] = [];
  if (partly.length > 0) {
    const more = partly.length > 3 ? ` and ${partly.length - 3} more` : '';
    notes.push(`(${partly.slice(0, 3).join(', ')}${more}: only its first 1 MB was searched.)`);
  }
  const deniedLine = deniedNote(denied);
  if (deniedLine) notes.push(deniedLine);
  if (outsideLinks > 0) {
    notes.push(`(${outsideLinks} ${outsideLinks === 1 ? 'symlink leading outside the workspace was' : 'symlinks leading outside the workspace were'} skipped.)`);
  }
  if (files.length === 0) {
    const where = input.glob ? `${shownTarget} (files matching ${input.glob})` : shownTarget;
    const content = [`No matches for /${input.pattern}/ in ${where}.`, ...notes].join('\n\n');
    return { content, display: { kind: 'grep', matches: 0, files: 0, denied } };
  }
  const { body, capped } = render(mode, files, limits);
  if (capped) {
    const shown = body === '' ? 0 : body.split('\n').length;
    notes.unshift(`(Results capped at ${shown.toLocaleString('en-US')}${mode === 'content' ? ' matching lines' : ' files'}; there are more. Narrow the pattern, path or glob.)`);
  }
  return { content: [body, ...notes].join('\n\n'), display: { kind: 'grep', matches: matchCount, files: files.length, capped, denied } };
}

export function createGrepTool(options: GrepOptions = {}): Tool<GrepInput> {
  const timeoutMs = options.regexTimeoutMs ?? DEFAULT_REGEX_TIMEOUT_MS;
  const limits: Limits = { results: options.maxResults ?? MAX_GREP_RESULTS, chars: options.maxChars ?? Number.POSITIVE_INFINITY };
  return defineTool<GrepInput>({
    name: 'grep',
    description: description(limits),
    inputSchema,
    describe: (input) => ({ title: input.pattern, subject: { kind: 'input' } }),
    kind: 'read',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    paths: (input) => [input.path ?? '.'],
    call: (input, ctx) => guard(input.path ?? '.', () => runGrep(input, ctx, timeoutMs, limits)),
  });
}
