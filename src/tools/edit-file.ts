import fs from 'node:fs/promises';
import * as z from 'zod';
import { shortenDiff, unifiedDiff } from './diff.js';
import { displayPath, resolveForWrite } from './paths.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { similarity } from './similar.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';

const inputSchema = z.object({
  path: z.string().describe('The file to edit: absolute, or relative to the workspace root.'),
  old_string: z.string().describe('The exact text to replace, including whitespace and indentation.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence instead of requiring exactly one (default false).'),
});

export type EditFileInput = z.infer<typeof inputSchema>;

const description = `Replace an exact string in an existing file.
- old_string must match the file exactly (whitespace and indentation included; do not include read_file's line-number prefix) and must occur exactly once, unless replace_all is true. Include enough surrounding lines to make it unique.
- Use replace_all to rename something throughout the file.
- To create a new file or rewrite one completely use write_file. Read the file first so old_string is accurate.`;

type Plan = { error: string } | { abs: string; shown: string; before: string; after: string; count: number };

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Points the model at the line it probably meant, since a near miss is the usual cause. */
function closestLineHint(text: string, oldString: string): string {
  const wanted = oldString.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  if (!wanted) return '';
  let best = { score: 0, line: 0, text: '' };
  text.split('\n').forEach((line, i) => {
    const score = similarity(line.trim(), wanted);
    if (score > best.score) best = { score, line: i + 1, text: line };
  });
  if (best.score < 0.5) return '';
  return `\nThe closest line is ${best.line}: ${JSON.stringify(best.text.replace(/\r$/, ''))}`;
}

async function planEdit(input: EditFileInput, ctx: ToolContext): Promise<Plan> {
  const abs = await resolveForWrite(ctx.cwd, input.path);
  const shown = displayPath(ctx.cwd, abs);
  if (input.old_string === input.new_string) {
    return { error: 'old_string and new_string are identical; there is nothing to change.' };
  }
  if (input.old_string === '') {
    return { error: 'old_string is empty. To create a file or replace its whole content use write_file.' };
  }
  let before: string;
  try {
    before = await fs.readFile(abs, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { error: `File not found: ${shown}. To create a new file use write_file.` };
    if (isErrno(err, 'EISDIR')) return { error: `${shown} is a directory, not a file.` };
    return { error: fsErrorMessage(err, shown) };
  }

  let oldString = input.old_string;
  let newString = input.new_string;
  let count = occurrences(before, oldString);
  // Models write "\n"; files with Windows line endings need the same edit in CRLF.
  if (count === 0 && before.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    oldString = oldString.replace(/\n/g, '\r\n');
    newString = newString.replace(/\n/g, '\r\n');
    count = occurrences(before, oldString);
  }
  if (count === 0) {
    return { error: `old_string was not found in ${shown}.${closestLineHint(before, input.old_string)}` };
  }
  if (count > 1 && !input.replace_all) {
    return {
      error: `old_string occurs ${count} times in ${shown}. Include more surrounding context to make it unique, or set replace_all to true to change every occurrence.`,
    };
  }
  // split/join rather than String.replace, whose replacement string treats `$&` and friends specially.
  const after = input.replace_all
    ? before.split(oldString).join(newString)
    : before.replace(oldString, () => newString);
  return { abs, shown, before, after, count: input.replace_all ? count : 1 };
}

async function editFile(input: EditFileInput, ctx: ToolContext): Promise<ToolResult> {
  const plan = await planEdit(input, ctx);
  if ('error' in plan) return errorResult(plan.error);
  try {
    await fs.writeFile(plan.abs, plan.after, 'utf8');
  } catch (err) {
    return errorResult(fsErrorMessage(err, plan.shown));
  }
  const diff = unifiedDiff(plan.shown, plan.before, plan.after);
  const what = plan.count === 1 ? '1 replacement' : `${plan.count} replacements`;
  return {
    content: `Edited ${plan.shown} (${what}).\n${shortenDiff(diff, 40)}`,
    display: { kind: 'edit_file', path: plan.shown, replacements: plan.count, diff },
  };
}

export function createEditFileTool(): Tool<EditFileInput> {
  return defineTool<EditFileInput>({
    name: 'edit_file',
    description,
    inputSchema,
    kind: 'edit',
    effects: () => 'workspace',
    isConcurrencySafe: () => false,
    paths: (input) => [input.path],
    async preview(input, ctx) {
      try {
        const plan = await planEdit(input, ctx);
        return 'error' in plan ? undefined : unifiedDiff(plan.shown, plan.before, plan.after);
      } catch {
        return undefined; // Best-effort; the call reports the real error.
      }
    },
    call: (input, ctx) => guard(input.path, () => editFile(input, ctx)),
  });
}
