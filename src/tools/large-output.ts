import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import type { AnyTool, ToolContext, ToolResult } from './tool.js';

// A tool result too big for the context is written beside the session
// ($CAIRN_HOME/projects/<workspace>/<session>/tool-results/<call>.txt); the model gets its head,
// its tail, its size and the path, and pages through the file with read_file, which may read its
// own session's folder without asking.

export const DEFAULT_THRESHOLD = 30_000;
/** Bash output kept when large results are saved: 16 M characters, head and tail; past that its middle is dropped. */
export const SAVED_BASH_CHARS = 16 * 1024 * 1024;
const HEAD_CHARS = 3_000;
const TAIL_CHARS = 1_500;
/** Tools that page their own output: saving it would only make read_file re-save what it reads. */
const SELF_PAGING = new Set(['read_file', 'web_fetch']);

export interface LargeOutputOptions {
  /** The session's folder; results go in its tool-results/. */
  sessionDir: string;
  /** Characters above which a result is saved (a setting); read once, when first needed. */
  threshold: () => Promise<number>;
}

function sizeText(chars: number): string {
  if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} KB`;
  return `${(chars / 1024 / 1024).toFixed(1)} MB`;
}

const fileName = (id: string): string => `${id.replace(/[^A-Za-z0-9_-]/g, '_') || 'result'}.txt`;

/** The short result that stands in for a saved one. */
export function summarizeSaved(content: string, file: string): string {
  const lines = content.split('\n').length;
  const size = `${content.length.toLocaleString('en-US')} characters, ${lines.toLocaleString('en-US')} lines, ${sizeText(content.length)}`;
  return [
    `Output too large for the context (${size}); the whole of it is saved to ${file}`,
    'Page through it with read_file (offset and limit) or search it with grep.',
    '',
    `--- first ${HEAD_CHARS.toLocaleString('en-US')} characters ---`,
    content.slice(0, HEAD_CHARS),
    `--- last ${TAIL_CHARS.toLocaleString('en-US')} characters ---`,
    content.slice(-TAIL_CHARS),
    '',
    `(full output: ${sizeText(content.length)}, saved to ${file})`,
  ].join('\n');
}

export function createLargeOutputSaver(opts: LargeOutputOptions) {
  const dir = path.join(opts.sessionDir, 'tool-results');
  let threshold: Promise<number> | undefined;
  let counter = 0;
  return {
    dir,
    /** The result as the model should get it: unchanged, or saved and summarized. Never throws. */
    async save(toolName: string, result: ToolResult, callId: string | undefined): Promise<ToolResult> {
      if (SELF_PAGING.has(toolName)) return result;
      const limit = await (threshold ??= opts.threshold().catch(() => DEFAULT_THRESHOLD));
      if (result.content.length <= limit) return result;
      const file = path.join(dir, fileName(callId ?? `${toolName}-${++counter}`));
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        await writeFile(file, result.content, { mode: 0o600 });
      } catch (err) {
        // Cannot save: the model still gets the head and tail, and why there is no file.
        const cut = `${result.content.slice(0, HEAD_CHARS)}\n…\n${result.content.slice(-TAIL_CHARS)}`;
        return { ...result, content: `${cut}\n\n(output of ${result.content.length} characters cut: saving it to ${file} failed: ${errorMessage(err)})` };
      }
      return { ...result, content: summarizeSaved(result.content, file) };
    },
  };
}
export type LargeOutputSaver = ReturnType<typeof createLargeOutputSaver>;

/** The same tool, its results passed through the saver. */
export function withLargeOutput(tool: AnyTool, saver: LargeOutputSaver): AnyTool {
  const call: AnyTool['call'] = async (input, ctx: ToolContext) => saver.save(tool.name, await tool.call(input, ctx), ctx.toolUseId);
  // Built on the original as its prototype: every member is the original's but `call`.
  return Object.create(tool, { call: { value: call, enumerable: true } }) as AnyTool;
}

/**
 * Removes the saved outputs of sessions not touched for `days` days (Claude Code's cleanupPeriodDays),
 * across every workspace under $CAIRN_HOME/projects. Returns the folders it could not remove, with why.
 */
export async function cleanOldOutputs(projectsRoot: string, days: number, now: number): Promise<string[]> {
  const problems: string[] = [];
  const cutoff = now - days * 24 * 60 * 60 * 1000;
  let workspaces: string[];
  try {
    workspaces = await readdir(projectsRoot);
  } catch {
    return problems; // no projects yet
  }
  for (const ws of workspaces) {
    let sessions: string[];
    try {
      sessions = await readdir(path.join(projectsRoot, ws));
    } catch {
      continue; // a file, not a workspace folder
    }
    for (const session of sessions) {
      const dir = path.join(projectsRoot, ws, session, 'tool-results');
      try {
        if ((await stat(dir)).mtimeMs < cutoff) await rm(dir, { recursive: true, force: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') problems.push(`${dir}: ${errorMessage(err)}`);
      }
    }
  }
  return problems;
}
