import fs from 'node:fs/promises';
import path from 'node:path';
import { glob as tinyglob } from 'tinyglobby';
import { z } from 'zod';
import { GitignoreFilter } from './gitignore.js';
import { displayPath, isInside, resolveInWorkspace } from './paths.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';

export const MAX_GLOB_RESULTS = 200;

const inputSchema = z.object({
  pattern: z.string().describe('Glob pattern, e.g. "**/*.ts" or "src/**/{index,main}.js".'),
  path: z
    .string()
    .optional()
    .describe('Directory to search in (default: the workspace root). The pattern is relative to it.'),
});

export type GlobInput = z.infer<typeof inputSchema>;

const description = `Find files by name with a glob pattern (e.g. "**/*.ts", "src/**/test_*.py"). Returns matching file paths, newest first.
- Skips .git and files ignored by .gitignore (unless you point path inside an ignored directory). Hidden files are included.
- At most ${MAX_GLOB_RESULTS} results; narrow the pattern or path if you hit the cap.
- To search file contents use grep; to see one directory use list_dir.`;

const MAGIC = /[*?[\]{}()!+@]/;

/** Moves a pattern's leading literal directories into the base, so an absolute or deep pattern crawls only what it needs. */
export function splitStaticPrefix(base: string, pattern: string): { base: string; pattern: string } {
  const parts = pattern.split('/');
  const fixed: string[] = [];
  while (parts.length > 1 && !MAGIC.test(parts[0] ?? '')) fixed.push(parts.shift() ?? '');
  if (fixed.length === 0) return { base, pattern };
  const prefix = fixed.join('/') || '/';
  return { base: path.resolve(base, prefix), pattern: parts.join('/') };
}

/** Whether .gitignore should filter results: not outside the workspace, nor when the caller deliberately searches inside an ignored directory. */
export async function gitignoreApplies(filter: GitignoreFilter, cwd: string, base: string): Promise<boolean> {
  return isInside(cwd, base) && !(await filter.isIgnored(base, true));
}

/** Ignore globs for tinyglobby, so ignored heavy directories (node_modules, dist) are never crawled. */
async function pruneGlobs(filter: GitignoreFilter, base: string): Promise<string[]> {
  const globs = ['**/.git/**'];
  if (await filter.isIgnored(path.join(base, 'node_modules'), true)) globs.push('**/node_modules/**');
  try {
    for (const entry of await fs.readdir(base, { withFileTypes: true })) {
      if (entry.isDirectory() && (await filter.isIgnored(path.join(base, entry.name), true))) {
        globs.push(`${entry.name.replace(/[*?[\]{}()!+@\\]/g, '\\$&')}/**`);
      }
    }
  } catch {
    // Unreadable base: tinyglobby will report nothing and the post-filter still applies.
  }
  return globs;
}

async function runGlob(input: GlobInput, ctx: ToolContext): Promise<ToolResult> {
  const requested = resolveInWorkspace(ctx.cwd, input.path ?? '.');
  const shownBase = displayPath(ctx.cwd, requested);
  try {
    const stat = await fs.stat(requested);
    if (!stat.isDirectory()) return errorResult(`${shownBase} is not a directory; glob's path must be a directory.`);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return errorResult(`Directory not found: ${shownBase}`);
    return errorResult(fsErrorMessage(err, shownBase));
  }
  const { base, pattern } = path.isAbsolute(input.pattern)
    ? splitStaticPrefix('/', input.pattern.slice(1))
    : splitStaticPrefix(requested, input.pattern);

  const filter = new GitignoreFilter(ctx.cwd);
  const useIgnore = await gitignoreApplies(filter, ctx.cwd, base);
  let files: string[];
  try {
    files = await tinyglob(pattern, {
      cwd: base,
      absolute: true,
      dot: true,
      followSymbolicLinks: false,
      ignore: useIgnore ? await pruneGlobs(filter, base) : ['**/.git/**'],
      signal: ctx.signal,
    });
  } catch (err) {
    if (ctx.signal.aborted) return errorResult('glob was interrupted.');
    throw err;
  }

  const kept: { file: string; mtime: number }[] = [];
  for (const file of files) {
    if (useIgnore && (await filter.isIgnored(file, false))) continue;
    try {
      kept.push({ file, mtime: (await fs.stat(file)).mtimeMs });
    } catch {
      // Deleted (or a dangling link) between the crawl and now: it no longer matches anything real.
    }
  }
  kept.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

  if (kept.length === 0) {
    return { content: `No files match "${input.pattern}" in ${shownBase}.`, display: { count: 0 } };
  }
  const lines = kept.slice(0, MAX_GLOB_RESULTS).map((k) => displayPath(ctx.cwd, k.file));
  const note =
    kept.length > MAX_GLOB_RESULTS
      ? `\n\n(Showing the ${MAX_GLOB_RESULTS} newest of ${kept.length} matches. Use a narrower pattern or path.)`
      : '';
  return { content: lines.join('\n') + note, display: { count: kept.length } };
}

export function createGlobTool(): Tool<GlobInput> {
  return defineTool<GlobInput>({
    name: 'glob',
    description,
    inputSchema,
    kind: 'read',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    paths: (input) => [input.path ?? '.'],
    call: (input, ctx) => guard(input.path ?? '.', () => runGlob(input, ctx)),
  });
}
