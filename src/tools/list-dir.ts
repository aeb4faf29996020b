import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { GitignoreFilter } from './gitignore.js';
import { displayPath, resolveInWorkspace } from './paths.js';
import { deniedNote } from './read-deny.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { similarSibling } from './similar.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';

export const MAX_ENTRIES = 1000;

const inputSchema = z.object({
  path: z
    .string()
    .optional()
    .describe('The directory to list: absolute, or relative to the workspace root (default: the workspace root).'),
});

export type ListDirInput = z.infer<typeof inputSchema>;

const description = `List one directory's entries (not recursive), sorted, with a trailing "/" on directories.
- Hides .git and anything the workspace's .gitignore ignores. Shows at most ${MAX_ENTRIES} entries.
- To find files by name across the tree use glob; to search contents use grep.`;

async function isDirectoryEntry(dir: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return (await fs.stat(path.join(dir, entry.name))).isDirectory();
  } catch {
    return false; // A dangling link is listed as a plain entry.
  }
}

async function listDir(input: ListDirInput, ctx: ToolContext): Promise<ToolResult> {
  const abs = resolveInWorkspace(ctx.cwd, input.path ?? '.');
  const shown = displayPath(ctx.cwd, abs);
  let entries;
  try {
    entries = await fs.readdir(abs, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOTDIR')) return errorResult(`${shown} is a file, not a directory. Use read_file to read it.`);
    if (isErrno(err, 'ENOENT')) {
      const sibling = await similarSibling(abs);
      return errorResult(`Directory not found: ${shown}.${sibling ? ` Did you mean ${displayPath(ctx.cwd, sibling)}?` : ' Use glob to find it.'}`);
    }
    return errorResult(fsErrorMessage(err, shown));
  }
  const filter = new GitignoreFilter(ctx.cwd);
  const names: string[] = [];
  let denied = 0;
  for (const entry of entries) {
    if (entry.name === '.git') continue;
    const isDir = await isDirectoryEntry(abs, entry);
    if (await filter.isIgnored(path.join(abs, entry.name), isDir)) continue;
    // A Read deny rule hides the name too: listing `.env` invites reading it another way.
    if (ctx.isReadDenied?.(path.join(abs, entry.name))) {
      denied++;
      continue;
    }
    names.push(isDir ? `${entry.name}/` : entry.name);
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const notes: string[] = [];
  if (names.length > MAX_ENTRIES) notes.push(`(Showing ${MAX_ENTRIES} of ${names.length} entries. Use glob with a narrower pattern to find specific files.)`);
  const deniedLine = deniedNote(denied, 'entry');
  if (deniedLine) notes.push(deniedLine);
  const body = names.length === 0 ? `(${shown} is empty)` : names.slice(0, MAX_ENTRIES).join('\n');
  return { content: [body, ...notes].join('\n\n'), display: { kind: 'list_dir', path: shown, count: names.length, denied } };
}

export function createListDirTool(): Tool<ListDirInput> {
  return defineTool<ListDirInput>({
    name: 'list_dir',
    description,
    inputSchema,
    describe: (input) => ({ title: input.path ?? '.', subject: { kind: 'path', path: input.path ?? '.' } }),
    kind: 'read',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    paths: (input) => [input.path ?? '.'],
    call: (input, ctx) => guard(input.path ?? '.', () => listDir(input, ctx)),
  });
}
