import fs from 'node:fs/promises';
import path from 'node:path';
import { createInstructionReader, type ConditionalRule, type InstructionContext, type InstructionFile, type InstructionReader } from './instruction-reader.js';

export type { ConditionalRule, InstructionContext, InstructionFile } from './instruction-reader.js';
export { INSTRUCTION_SIZE_WARNING } from './instruction-reader.js';

/**
 * A folder's own instruction files, in the order they are read: cairn's and Claude Code's names
 * (CLAUDE.local.md after CLAUDE.md, as Claude Code does). `.claude/rules/` follows `.claude/CLAUDE.md`.
 */
const BEFORE_RULES = ['AGENT.md', 'AGENTS.md', 'CLAUDE.md', path.join('.claude', 'CLAUDE.md')];
const AFTER_RULES = ['CLAUDE.local.md', path.join('.cairn', 'AGENT.md')];

/** The git root above `cwd` (the nearest directory holding .git), or undefined. */
export async function findGitRoot(cwd: string): Promise<string | undefined> {
  let dir = cwd;
  for (;;) {
    try {
      await fs.stat(path.join(dir, '.git'));
      return dir;
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}

export interface LoadedInstructions {
  files: InstructionFile[];
  /** `.claude/rules` files with `paths:`, waiting for a tool to read a file they match. */
  conditional: ConditionalRule[];
  /** The reader, so files found later (a subfolder's CLAUDE.md) are not loaded twice. */
  reader: InstructionReader;
}

/**
 * Instruction files, in order: the user's ($CAIRN_HOME/AGENT.md, ~/.claude/CLAUDE.md, ~/.claude/rules/),
 * then from the git root down to the workspace each folder's files and `.claude/rules/`. Each
 * file's `@path` imports follow it. Absent files are the common case; one that exists but cannot
 * be read (permissions, a FIFO, a directory), a missing import or an import cycle is reported
 * through `onProblem` naming the file.
 */
export async function loadInstructionFiles(ctx: InstructionContext): Promise<LoadedInstructions> {
  const root = (await findGitRoot(ctx.cwd)) ?? ctx.cwd;
  const reader = createInstructionReader(ctx, root);
  const files: InstructionFile[] = [];
  await reader.add(path.join(ctx.cairnHome, 'AGENT.md'), files);
  await reader.add(path.join(ctx.claudeHome, 'CLAUDE.md'), files);
  await reader.addRules(path.join(ctx.claudeHome, 'rules'), ctx.cwd, files);
  for (const dir of foldersDown(root, ctx.cwd)) await addFolder(reader, dir, files);
  return { files, conditional: reader.conditional, reader };
}

/** One folder's instruction files and rules, appended to `out`. */
export async function addFolder(reader: InstructionReader, dir: string, out: InstructionFile[], loadedFor?: string): Promise<void> {
  const from = loadedFor ? { loadedFor } : {};
  for (const name of BEFORE_RULES) await reader.add(path.join(dir, name), out, from);
  await reader.addRules(path.join(dir, '.claude', 'rules'), dir, out, loadedFor);
  for (const name of AFTER_RULES) await reader.add(path.join(dir, name), out, from);
}

/** `top`, then each folder below it down to `bottom` (both included); `bottom` alone when it is not below `top`. */
export function foldersDown(top: string, bottom: string): string[] {
  const dirs: string[] = [];
  for (let dir = bottom; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === top || path.dirname(dir) === dir) break;
  }
  return dirs;
}
