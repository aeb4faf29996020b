import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { GitignoreFilter } from './gitignore.js';
import { tryCompileGlob } from './glob-match.js';
import { globReach } from './glob-reach.js';
import { globWithRipgrep } from './glob-rg.js';
import { newestFirst } from './newest-first.js';
import { displayPath, isInside, resolveInWorkspace } from './paths.js';
import { deniedNote } from './read-deny.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';
import { globFiles } from './walk.js';

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
- Syntax: * and ? within a name, ** for any depth, [abc] and [!a] classes, {a,b} alternatives; no extglobs like @(a|b).
- Skips .git and files ignored by .gitignore (unless you point path inside an ignored directory). Hidden files are included.
- At most ${MAX_GLOB_RESULTS} results; narrow the pattern or path if you hit the cap.
- To search file contents use grep; to see one directory use list_dir.`;

/** Whether .gitignore should filter results: not outside the workspace, nor when the caller deliberately searches inside an ignored directory. */
export async function gitignoreApplies(filter: GitignoreFilter, cwd: string, base: string): Promise<boolean> {
  return isInside(cwd, base) && !(await filter.isIgnored(base, true));
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
  const reach = globReach(input.path, input.pattern);
  if ('error' in reach) return errorResult(reach.error);
  // The same directory the permission check judged (paths() below), resolved the way every tool resolves paths.
  const base = resolveInWorkspace(ctx.cwd, reach.root);
  const pattern = reach.rest;

  const filter = new GitignoreFilter(ctx.cwd);
  const useIgnore = await gitignoreApplies(filter, ctx.cwd, base);
  const matcher = tryCompileGlob(pattern);
  if ('error' in matcher) return errorResult(matcher.error);
  const files =
    (await globWithRipgrep({ base, pattern, matcher, filter, useIgnore, cwd: ctx.cwd, signal: ctx.signal })) ??
    (await globFiles(base, matcher, { gitignore: useIgnore ? filter : undefined, signal: ctx.signal }));
  if (ctx.signal.aborted) return errorResult('glob was interrupted.');

  let denied = 0;
  // Whatever the matcher made of the pattern, nothing outside the judged directory is listed. Both walks give
  // normalized absolute paths, so a prefix decides (isInside's path.relative per file was a fifth of glob's CPU).
  const inBase = base.endsWith(path.sep) ? base : base + path.sep;
  const listed = files.filter((file) => {
    if (!file.startsWith(inBase)) return false;
    if (ctx.isReadDenied?.(file)) denied++;
    return !ctx.isReadDenied?.(file);
  });
  const kept = await newestFirst(listed, ctx.signal);
  if (kept === undefined) return errorResult('glob was interrupted.');

  const notes: string[] = [];
  if (kept.length > MAX_GLOB_RESULTS) notes.push(`(Showing the ${MAX_GLOB_RESULTS} newest of ${kept.length} matches. Use a narrower pattern or path.)`);
  const deniedLine = deniedNote(denied);
  if (deniedLine) notes.push(deniedLine);
  if (kept.length === 0) {
    return { content: [`No files match "${input.pattern}" in ${shownBase}.`, ...notes].join('\n\n'), display: { kind: 'glob', count: 0, denied } };
  }
  const lines = kept.slice(0, MAX_GLOB_RESULTS).map((file) => displayPath(ctx.cwd, file));
  return { content: [lines.join('\n'), ...notes].join('\n\n'), display: { kind: 'glob', count: kept.length, denied } };
}

export function createGlobTool(): Tool<GlobInput> {
  return defineTool<GlobInput>({
    name: 'glob',
    description,
    inputSchema,
    describe: (input) => ({ title: input.pattern, subject: { kind: 'input' } }),
    kind: 'read',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    // The path argument and the place the pattern itself reaches: `../*` or `/etc/*` must be judged as outside.
    paths: (input) => {
      const given = input.path ?? '.';
      const reach = globReach(input.path, input.pattern);
      return 'root' in reach && reach.root !== given ? [given, reach.root] : [given];
    },
    call: (input, ctx) => guard(input.path ?? '.', () => runGlob(input, ctx)),
  });
}
