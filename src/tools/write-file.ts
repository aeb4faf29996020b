import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { countLines, shortenDiff, unifiedDiff } from './diff.js';
import { displayPath, resolveForWrite } from './paths.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';

const inputSchema = z.object({
  path: z.string().describe('The file to write: absolute, or relative to the workspace root.'),
  content: z.string().describe('The complete new content of the file.'),
});

export type WriteFileInput = z.infer<typeof inputSchema>;

const description = `Create a file, or replace a file's entire content. Parent directories are created as needed.
- For changing part of an existing file prefer edit_file: it is shorter and safer than rewriting everything.
- Read an existing file before overwriting it so no content is lost.
- The result says whether the file was created or overwritten and shows the diff.`;

/** The current content, or undefined when the file does not exist yet. */
async function currentContent(abs: string, shown: string): Promise<{ text?: string; error?: string }> {
  try {
    const stat = await fs.stat(abs);
    if (stat.isDirectory()) return { error: `${shown} is a directory; write_file needs a file path.` };
    return { text: await fs.readFile(abs, 'utf8') };
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return {};
    return { error: fsErrorMessage(err, shown) };
  }
}

async function planWrite(input: WriteFileInput, ctx: ToolContext) {
  const abs = await resolveForWrite(ctx.cwd, input.path);
  const shown = displayPath(ctx.cwd, abs);
  const current = await currentContent(abs, shown);
  const diff = current.error ? '' : unifiedDiff(shown, current.text ?? '', input.content);
  return { abs, shown, current, diff };
}

async function writeFile(input: WriteFileInput, ctx: ToolContext): Promise<ToolResult> {
  const { abs, shown, current, diff } = await planWrite(input, ctx);
  if (current.error) return errorResult(current.error);
  try {
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, input.content, 'utf8');
  } catch (err) {
    return errorResult(fsErrorMessage(err, shown));
  }
  const created = current.text === undefined;
  const lines = countLines(input.content);
  const verb = created ? 'Created' : current.text === input.content ? 'Rewrote (unchanged)' : 'Overwrote';
  const summary = `${verb} ${shown} (${lines} ${lines === 1 ? 'line' : 'lines'}).`;
  // A new file's diff is just its content, which the model already has; only show changes to existing files.
  const content = !created && diff ? `${summary}\n${shortenDiff(diff)}` : summary;
  return { content, display: { kind: 'write_file', path: shown, created, lines, diff } };
}

export function createWriteFileTool(): Tool<WriteFileInput> {
  return defineTool<WriteFileInput>({
    name: 'write_file',
    description,
    inputSchema,
    kind: 'edit',
    effects: () => 'workspace',
    isConcurrencySafe: () => false,
    paths: (input) => [input.path],
    async preview(input, ctx) {
      try {
        const { current, diff } = await planWrite(input, ctx);
        return current.error ? undefined : diff;
      } catch {
        return undefined; // A preview is best-effort; the call itself reports the real error.
      }
    },
    call: (input, ctx) => guard(input.path, () => writeFile(input, ctx)),
  });
}
