import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { countLines, shortenDiff, unifiedDiff } from './diff.js';
import { displayPath, resolveForWrite } from './paths.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { recordSeen, staleReadRefusal } from './read-state.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';

const inputSchema = z.object({
  path: z.string().describe('The file to write: absolute, or relative to the workspace root.'),
  content: z.string().describe('The complete new content of the file.'),
});

export type WriteFileInput = z.infer<typeof inputSchema>;

const description = `Create a file, or replace a file's entire content. Parent directories are created as needed.
- A new file needs no read. To overwrite an existing file, read it with read_file in this session first; if it was not read, or changed on disk since (by the user, a formatter, another agent or a bash command), the call is refused, saying which, and you read it again.
- For changing part of an existing file prefer edit_file: it is shorter and safer than rewriting everything.
- The result says whether the file was created or overwritten and shows the diff of an overwrite; the user sees the same.`;

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
  const stale = await staleReadRefusal(ctx.readState, abs, shown, 'write_file');
  if (stale) return errorResult(stale);
  try {
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, input.content, 'utf8');
  } catch (err) {
    return errorResult(fsErrorMessage(err, shown));
  }
  // A file the session created or rewrote counts as read: the model knows what is in it.
  await recordSeen(ctx.readState, abs, input.content);
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
    describe: (input) => ({ title: input.path, subject: { kind: 'path', path: input.path } }),
    kind: 'edit',
    effects: () => 'workspace',
    isConcurrencySafe: () => false,
    paths: (input) => [input.path],
    refuse: async (input, ctx) => {
      const abs = await resolveForWrite(ctx.cwd, input.path);
      return staleReadRefusal(ctx.readState, abs, displayPath(ctx.cwd, abs), 'write_file');
    },
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
