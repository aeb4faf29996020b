import fs from 'node:fs/promises';
import * as z from 'zod';
import { shortenDiff, unifiedDiff } from './diff.js';
import { displayPath, resolveForWrite } from './paths.js';
import { errorResult, fsErrorMessage, guard, isErrno } from './result.js';
import { recordSeen, staleReadRefusal } from './read-state.js';
import { similarSibling, similarity } from './similar.js';
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
- The file must have been read with read_file in this session and be unchanged on disk since (the user, a formatter, another agent or a bash command may have changed it); otherwise the call is refused, saying which, and you read the file again. A file you wrote with write_file or edit_file counts as read.
- old_string must match the file exactly (whitespace and indentation included; do not include read_file's line-number prefix) and must occur exactly once, unless replace_all is true. Include enough surrounding lines to make it unique.
- Use replace_all to rename something throughout the file.
- To create a new file or rewrite one completely use write_file.
- The result shows the diff (shortened past 40 lines); the user sees the diff.`;

/** `before` and `after` are the file's bytes (decoded only for the diff and the hints). */
type Plan = { error: string } | { abs: string; shown: string; before: Buffer; after: Buffer; count: number };

/** Where `needle` starts in `haystack`, left to right without overlaps (as String.split counts). */
function byteOccurrences(haystack: Buffer, needle: Buffer): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/** `haystack` with `needle` at each of `at` replaced by `replacement`: every other byte as it was. */
function replaceBytes(haystack: Buffer, needle: Buffer, replacement: Buffer, at: readonly number[]): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (const i of at) {
    parts.push(haystack.subarray(from, i), replacement);
    from = i + needle.length;
  }
  parts.push(haystack.subarray(from));
  return Buffer.concat(parts);
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

/** Why an old_string with U+FFFD finds nothing: read_file shows bytes that are not UTF-8 that way, and they are not that character. */
function replacementCharHint(oldString: string, text: string): string {
  if (!oldString.includes('\uFFFD') || !text.includes('\uFFFD')) return '';
  return '\nold_string contains \uFFFD, which stands for bytes in the file that are not valid UTF-8; those bytes cannot be typed. Choose an old_string next to them instead: the bytes are kept as they are.';
}

/**
 * The edit, worked out on the file's bytes: old_string and new_string are UTF-8, and only the bytes
 * old_string matches change. Bytes that are not valid UTF-8 elsewhere (a Latin-1 comment, a binary
 * blob) survive as they are; decoding the file and writing it back would turn them into U+FFFD.
 */
async function planEdit(input: EditFileInput, ctx: ToolContext): Promise<Plan> {
  const abs = await resolveForWrite(ctx.cwd, input.path);
  const shown = displayPath(ctx.cwd, abs);
  if (input.old_string === input.new_string) {
    return { error: 'old_string and new_string are identical; there is nothing to change.' };
  }
  if (input.old_string === '') {
    return { error: 'old_string is empty. To create a file or replace its whole content use write_file.' };
  }
  const stale = await staleReadRefusal(ctx.readState, abs, shown, 'edit_file');
  if (stale) return { error: stale };
  let before: Buffer;
  try {
    before = await fs.readFile(abs);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) {
      const sibling = await similarSibling(abs);
      return { error: `File not found: ${shown}.${sibling ? ` Did you mean ${displayPath(ctx.cwd, sibling)}?` : ''} To create a new file use write_file.` };
    }
    if (isErrno(err, 'EISDIR')) return { error: `${shown} is a directory, not a file.` };
    return { error: fsErrorMessage(err, shown) };
  }

  let oldString = input.old_string;
  let newString = input.new_string;
  let at = byteOccurrences(before, Buffer.from(oldString, 'utf8'));
  // Models write "\n"; files with Windows line endings need the same edit in CRLF.
  if (at.length === 0 && before.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    oldString = oldString.replace(/\n/g, '\r\n');
    newString = newString.replace(/\n/g, '\r\n');
    at = byteOccurrences(before, Buffer.from(oldString, 'utf8'));
  }
  if (at.length === 0) {
    const text = before.toString('utf8');
    return { error: `old_string was not found in ${shown}.${closestLineHint(text, input.old_string)}${replacementCharHint(input.old_string, text)}` };
  }
  if (at.length > 1 && !input.replace_all) {
    return {
      error: `old_string occurs ${at.length} times in ${shown}. Include more surrounding context to make it unique, or set replace_all to true to change every occurrence.`,
    };
  }
  const replaced = input.replace_all ? at : at.slice(0, 1);
  const after = replaceBytes(before, Buffer.from(oldString, 'utf8'), Buffer.from(newString, 'utf8'), replaced);
  return { abs, shown, before, after, count: replaced.length };
}

/** The diff the model and the user see: bytes that are not UTF-8 show as U+FFFD there, and only there. */
function diffOf(plan: Exclude<Plan, { error: string }>): string {
  return unifiedDiff(plan.shown, plan.before.toString('utf8'), plan.after.toString('utf8'));
}

async function editFile(input: EditFileInput, ctx: ToolContext): Promise<ToolResult> {
  const plan = await planEdit(input, ctx);
  if ('error' in plan) return errorResult(plan.error);
  try {
    await fs.writeFile(plan.abs, plan.after);
  } catch (err) {
    return errorResult(fsErrorMessage(err, plan.shown));
  }
  // The model wrote this content, so it knows the file as it now is.
  await recordSeen(ctx.readState, plan.abs, plan.after);
  const diff = diffOf(plan);
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
    describe: (input) => ({ title: input.path, subject: { kind: 'path', path: input.path } }),
    kind: 'edit',
    effects: () => 'workspace',
    isConcurrencySafe: () => false,
    paths: (input) => [input.path],
    refuse: async (input, ctx) => {
      const abs = await resolveForWrite(ctx.cwd, input.path);
      return staleReadRefusal(ctx.readState, abs, displayPath(ctx.cwd, abs), 'edit_file');
    },
    async preview(input, ctx) {
      try {
        const plan = await planEdit(input, ctx);
        return 'error' in plan ? undefined : diffOf(plan);
      } catch {
        return undefined; // Best-effort; the call reports the real error.
      }
    },
    call: (input, ctx) => guard(input.path, () => editFile(input, ctx)),
  });
}
