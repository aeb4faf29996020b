import fs from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { looksBinary } from './binary.js';
import { GitignoreFilter } from './gitignore.js';
import { gitignoreApplies } from './glob.js';
import { displayPath, resolveInWorkspace } from './paths.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';
import { walkFiles } from './walk.js';

export const MAX_GREP_RESULTS = 250;
export const MAX_GREP_FILE_BYTES = 1024 * 1024;
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

const description = `Search file contents with a JavaScript regular expression, line by line.
- output_mode "files_with_matches" (default) lists files; "content" shows path:line:text; "count" shows per-file counts.
- Narrow with path and glob (e.g. glob "*.ts"). Use case_insensitive for case-blind search. Escape regex metacharacters for literal text (e.g. "foo\\(").
- Skips .git, node_modules (unless path points into it), .gitignored files, binary files and files over 1 MB. At most ${MAX_GREP_RESULTS} results.
- Prefer this over running grep or rg through bash.`;

type Mode = NonNullable<GrepInput['output_mode']>;

interface FileHits {
  shown: string;
  lines: { no: number; text: string }[];
}

function searchText(text: string, regex: RegExp): { no: number; text: string }[] {
  const hits: { no: number; text: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (regex.test(line)) hits.push({ no: i + 1, text: line });
  }
  return hits;
}

function clip(line: string): string {
  return line.length > MAX_MATCH_LINE_CHARS ? `${line.slice(0, MAX_MATCH_LINE_CHARS)}… [truncated]` : line;
}

function render(mode: Mode, files: FileHits[]): { body: string; capped: boolean; total: number } {
  if (mode === 'content') {
    const all = files.flatMap((f) => f.lines.map((l) => `${f.shown}:${l.no}:${clip(l.text)}`));
    return { body: all.slice(0, MAX_GREP_RESULTS).join('\n'), capped: all.length > MAX_GREP_RESULTS, total: all.length };
  }
  const rows = files.map((f) => (mode === 'count' ? `${f.shown}:${f.lines.length}` : f.shown));
  return { body: rows.slice(0, MAX_GREP_RESULTS).join('\n'), capped: rows.length > MAX_GREP_RESULTS, total: rows.length };
}

async function runGrep(input: GrepInput, ctx: ToolContext): Promise<ToolResult> {
  let regex: RegExp;
  try {
    regex = new RegExp(input.pattern, input.case_insensitive ? 'i' : '');
  } catch (err) {
    return errorResult(`Invalid regular expression ${JSON.stringify(input.pattern)}: ${err instanceof Error ? err.message : String(err)}`);
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

  const files: FileHits[] = [];
  let matchCount = 0;
  const searchFile = async (file: string, explicit: boolean): Promise<string | undefined> => {
    const data = await fs.readFile(file);
    if (looksBinary(data)) return `${displayPath(ctx.cwd, file)} is a binary file.`;
    if (!explicit && data.length > MAX_GREP_FILE_BYTES) return undefined;
    const lines = searchText(data.toString('utf8'), regex);
    if (lines.length > 0) {
      files.push({ shown: displayPath(ctx.cwd, file), lines });
      matchCount += lines.length;
    }
    return undefined;
  };

  if (!stat.isDirectory()) {
    const problem = await searchFile(target, true);
    if (problem) return errorResult(problem);
  } else {
    const filter = new GitignoreFilter(ctx.cwd);
    const useIgnore = await gitignoreApplies(filter, ctx.cwd, target);
    const matchesGlob = input.glob
      ? picomatch(input.glob, { dot: true, basename: !input.glob.includes('/') })
      : undefined;
    // Searching inside node_modules is fine when asked for; otherwise it is noise.
    const skipNodeModules = !target.split(path.sep).includes('node_modules');
    for await (const file of walkFiles(target, {
      gitignore: useIgnore ? filter : undefined,
      skipNodeModules,
      signal: ctx.signal,
    })) {
      if (matchesGlob && !matchesGlob(path.relative(target, file).split(path.sep).join('/'))) continue;
      try {
        const size = (await fs.stat(file)).size;
        if (size > MAX_GREP_FILE_BYTES) continue;
        await searchFile(file, false);
      } catch {
        continue; // Unreadable or vanished files are skipped, like grep -s.
      }
      // Content mode can stop early; the other modes are cheap per file and need the file list.
      if (mode === 'content' && matchCount > MAX_GREP_RESULTS) break;
      if (files.length > MAX_GREP_RESULTS) break;
    }
    if (ctx.signal.aborted) return errorResult('grep was interrupted.');
  }

  if (files.length === 0) {
    const where = input.glob ? `${shownTarget} (files matching ${input.glob})` : shownTarget;
    return { content: `No matches for /${input.pattern}/ in ${where}.`, display: { matches: 0, files: 0 } };
  }
  const { body, capped } = render(mode, files);
  const note = capped
    ? `\n\n(Results capped at ${MAX_GREP_RESULTS}${mode === 'content' ? ' matching lines' : ' files'}; there are more. Narrow the pattern, path or glob.)`
    : '';
  return { content: body + note, display: { matches: matchCount, files: files.length, capped } };
}

export function createGrepTool(): Tool<GrepInput> {
  return defineTool<GrepInput>({
    name: 'grep',
    description,
    inputSchema,
    kind: 'read',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    paths: (input) => [input.path ?? '.'],
    call: (input, ctx) => guard(input.path ?? '.', () => runGrep(input, ctx)),
  });
}
