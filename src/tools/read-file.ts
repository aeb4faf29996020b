import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import readline from 'node:readline';
import { z } from 'zod';
import { looksBinary, readHead } from './binary.js';
import { displayPath, resolveInWorkspace } from './paths.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { similarSibling } from './similar.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** Above this a whole-file read is cut short, and no single read returns more text than this. */
export const LARGE_FILE_BYTES = 256 * 1024;

const inputSchema = z.object({
  path: z.string().describe('The file to read: absolute, or relative to the workspace root.'),
  offset: z.number().int().min(1).optional().describe('1-based line number to start reading from.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Maximum number of lines to read (default ${DEFAULT_LINE_LIMIT}).`),
});

export type ReadFileInput = z.infer<typeof inputSchema>;

const description = `Read a text file from the workspace. Output is line-numbered like \`cat -n\` (number, tab, line); the numbers are not part of the file.
- Reads up to ${DEFAULT_LINE_LIMIT} lines from the start by default; use offset (1-based line) and limit to page through longer files.
- Lines longer than ${MAX_LINE_CHARS} characters are truncated. Files over 256 KB read without offset/limit show only their first lines.
- Binary files are refused. For directories use list_dir; to find files use glob; to search contents use grep.
- Read a file before editing it, and read several files in parallel when you need them.`;

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

async function missingFile(abs: string, shown: string, cwd: string): Promise<ToolResult> {
  const sibling = await similarSibling(abs);
  const hint = sibling ? ` Did you mean ${displayPath(cwd, sibling)}?` : '';
  return errorResult(`File not found: ${shown}.${hint}`);
}

async function readFile(input: ReadFileInput, ctx: ToolContext): Promise<ToolResult> {
  const abs = resolveInWorkspace(ctx.cwd, input.path);
  const shown = displayPath(ctx.cwd, abs);
  let stat;
  try {
    stat = await fs.stat(abs);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return missingFile(abs, shown, ctx.cwd);
    return errorResult(fsErrorMessage(err, shown));
  }
  if (stat.isDirectory()) return errorResult(`${shown} is a directory, not a file. Use list_dir to see its contents.`);
  // FIFOs and devices would block forever or never end.
  if (!stat.isFile()) return errorResult(`${shown} is not a regular file.`);

  if (looksBinary(await readHead(abs))) {
    return errorResult(`${shown} looks like a binary file (${formatSize(stat.size)}); read_file only shows text files.`);
  }

  const paged = input.offset !== undefined || input.limit !== undefined;
  const start = input.offset ?? 1;
  const limit = input.limit ?? DEFAULT_LINE_LIMIT;
  const out: string[] = [];
  let chars = 0;
  let total = 0;
  let end = start - 1;
  let cutByBudget = false;

  const stream = createReadStream(abs, { encoding: 'utf8' });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const raw of lines) {
      if (ctx.signal.aborted) return errorResult(`Reading ${shown} was interrupted.`);
      total++;
      if (total < start || total >= start + limit || cutByBudget) continue;
      let line = total === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (line.length > MAX_LINE_CHARS) {
        line = `${line.slice(0, MAX_LINE_CHARS)}… [line truncated: ${line.length} characters]`;
      }
      const numbered = `${String(total).padStart(6)}\t${line}`;
      if (chars + numbered.length > LARGE_FILE_BYTES && out.length > 0) {
        cutByBudget = true;
        continue;
      }
      out.push(numbered);
      chars += numbered.length + 1;
      end = total;
    }
  } finally {
    lines.close();
    stream.destroy();
  }

  const display = { path: shown, startLine: start, endLine: end, totalLines: total };
  if (total === 0) return { content: `(${shown} is empty)`, display: { ...display, startLine: 0, endLine: 0 } };
  if (start > total) {
    return { ...errorResult(`${shown} has ${total} lines; offset ${start} is past the end.`), display };
  }

  let note = '';
  if (end < total) {
    const next = `offset=${end + 1}`;
    if (!paged && stat.size > LARGE_FILE_BYTES) {
      note = `(${shown} is large: ${formatSize(stat.size)}, ${total} lines. Showing lines ${start}-${end}. Page through it with offset and limit, e.g. ${next} limit=${DEFAULT_LINE_LIMIT}, or use grep to find the part you need.)`;
    } else {
      note = `(Showing lines ${start}-${end} of ${total}. To read more, call read_file with ${next}.)`;
    }
  }
  return { content: note ? `${out.join('\n')}\n\n${note}` : out.join('\n'), display };
}

export function createReadFileTool(): Tool<ReadFileInput> {
  return defineTool<ReadFileInput>({
    name: 'read_file',
    description,
    inputSchema,
    kind: 'read',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    paths: (input) => [input.path],
    call: (input, ctx) => guard(input.path, () => readFile(input, ctx)),
  });
}
