import fs from 'node:fs/promises';
import * as z from 'zod';
import { looksBinary, readHead } from './binary.js';
import { attachableType, attachFile, AttachmentProblem } from '../attachments/attach-file.js';
import { attachmentChip, attachmentLabel } from '../attachments/attachment-label.js';
import { IMAGE_LIMITS } from '../attachments/image-limits.js';
import { blockLines, readLineBlocks } from './line-reader.js';
import { displayPath, resolveInWorkspace } from './paths.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { stampFile, type FileStamp } from './read-state.js';
import { similarSibling } from './similar.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** Above this a whole-file read is cut short, and no single read returns more text than this. */
export const LARGE_FILE_BYTES = 256 * 1024;
/** A line keeps this much in memory; anything longer is counted, not held (a 600 MB line would not fit in a string). */
const MAX_LINE_BYTES = 64 * 1024;

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
- Images (PNG, JPEG, GIF, WebP) come back as the picture itself, scaled down when large; a PDF comes back as the document (with its text page by page). Other binary files are refused. For directories use list_dir; to find files use glob; to search contents use grep.
- Read a file before editing it, and read several files in parallel when you need them.`;

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

async function missingFile(abs: string, shown: string, cwd: string): Promise<ToolResult> {
  const sibling = await similarSibling(abs);
  const hint = sibling ? ` Did you mean ${displayPath(cwd, sibling)}?` : '';
  return errorResult(`File not found: ${shown}.${hint}`);
}

/** An image or PDF, whole: the model gets the picture or document, the text says what it is. */
async function readAttachment(abs: string, shown: string, ctx: ToolContext): Promise<ToolResult> {
  const display = { kind: 'read_file' as const, path: shown, startLine: 0, endLine: 0, totalLines: 0 };
  try {
    const block = await attachFile(abs, shown, ctx.imageLimits ?? IMAGE_LIMITS.anthropic);
    const pages = block.type === 'document' ? ` Its text, page by page, goes with it for providers that cannot read PDFs.` : '';
    return { content: `Read ${attachmentLabel(block)}: attached below.${pages}`, attachments: [block], display: { ...display, attachment: attachmentChip(block) } };
  } catch (error) {
    if (error instanceof AttachmentProblem) return errorResult(error.message);
    throw error;
  }
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

  if (await attachableType(abs)) return readAttachment(abs, shown, ctx);
  if (looksBinary(await readHead(abs))) {
    return errorResult(`${shown} looks like a binary file (${formatSize(stat.size)}); read_file only shows text files.`);
  }

  // Stamped before reading: a change made while it is read shows as a change at the next edit (the safe side).
  const real = ctx.readState ? await fs.realpath(abs).catch(() => abs) : abs;
  const seen: FileStamp | undefined = ctx.readState ? await stampFile(real).catch(() => undefined) : undefined;
  const paged = input.offset !== undefined || input.limit !== undefined;
  const start = input.offset ?? 1;
  const limit = input.limit ?? DEFAULT_LINE_LIMIT;
  const out: string[] = [];
  const cutShown: [number, number][] = []; // shown lines too long to hold: [line, bytes]
  let chars = 0;
  let total = 0;
  let end = start - 1;
  let cutByBudget = false;

  // Lines outside the window are only counted; memory stays bounded by the block size and line cap.
  const handle = await fs.open(abs, 'r');
  try {
    for await (const block of readLineBlocks(handle, { signal: ctx.signal, maxLineBytes: MAX_LINE_BYTES })) {
      total = block.firstLine + block.lineCount - 1;
      if (cutByBudget || total < start || block.firstLine >= start + limit) continue;
      const lines = blockLines(block);
      for (const [i, text] of lines.entries()) {
        const no = block.firstLine + i;
        if (no < start || no >= start + limit) continue;
        let line = no === 1 ? text.replace(/^\uFEFF/, '') : text;
        const fullBytes = block.cut.get(no);
        if (fullBytes !== undefined) {
          line = `${line.slice(0, MAX_LINE_CHARS)}… [line truncated: ${count(fullBytes)} bytes]`;
          cutShown.push([no, fullBytes]);
        } else if (line.length > MAX_LINE_CHARS) {
          line = `${line.slice(0, MAX_LINE_CHARS)}… [line truncated: ${line.length} characters]`;
        }
        const numbered = `${String(no).padStart(6)}\t${line}`;
        if (chars + numbered.length > LARGE_FILE_BYTES && out.length > 0) {
          cutByBudget = true;
          break;
        }
        out.push(numbered);
        chars += numbered.length + 1;
        end = no;
      }
    }
  } finally {
    await handle.close();
  }
  if (ctx.signal.aborted) return errorResult(`Reading ${shown} was interrupted.`);

  const display = { kind: 'read_file' as const, path: shown, startLine: start, endLine: end, totalLines: total };
  if (seen && start <= Math.max(total, 1)) ctx.readState?.record(real, seen);
  if (total === 0) return { content: `(${shown} is empty)`, display: { ...display, startLine: 0, endLine: 0 } };
  if (start > total) {
    return { ...errorResult(`${shown} has ${total} lines; offset ${start} is past the end.`), display };
  }

  const notes: string[] = [];
  if (cutShown.length > 0) {
    const named = cutShown.slice(0, 3).map(([no, bytes]) => `line ${no} is ${count(bytes)} bytes`);
    const more = cutShown.length > 3 ? ` and ${cutShown.length - 3} more are as long` : '';
    notes.push(
      `(${shown} is ${formatSize(stat.size)}; ${named.join(', ')}${more}: showing the first ${count(MAX_LINE_CHARS)} characters of ${cutShown.length === 1 ? 'it' : 'each'}. Use grep to find text inside long lines.)`,
    );
  }
  if (end < total) {
    const next = `offset=${end + 1}`;
    if (!paged && stat.size > LARGE_FILE_BYTES) {
      notes.push(`(${shown} is large: ${formatSize(stat.size)}, ${total} lines. Showing lines ${start}-${end}. Page through it with offset and limit, e.g. ${next} limit=${DEFAULT_LINE_LIMIT}, or use grep to find the part you need.)`);
    } else {
      notes.push(`(Showing lines ${start}-${end} of ${total}. To read more, call read_file with ${next}.)`);
    }
  }
  return { content: [out.join('\n'), ...notes].join('\n\n'), display };
}

export function createReadFileTool(): Tool<ReadFileInput> {
  return defineTool<ReadFileInput>({
    name: 'read_file',
    description,
    inputSchema,
    describe: (input) => ({ title: input.path, subject: { kind: 'path', path: input.path } }),
    kind: 'read',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    paths: (input) => [input.path],
    call: (input, ctx) => guard(input.path, () => readFile(input, ctx)),
  });
}
