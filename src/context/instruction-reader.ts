import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { errorMessage } from '../util/error-message.js';
import { parseLenientFrontmatter } from '../util/lenient-frontmatter.js';
import type { ReportProblem } from '../util/problem-reporter.js';
import { danglingLinkTarget, readTextFile } from '../util/read-text-file.js';
import { findImports, looksLikePath, MAX_IMPORT_DEPTH, resolveImport, stripHtmlComments } from './instruction-imports.js';

export interface InstructionFile {
  path: string;
  content: string;
  /** The file whose `@path` import brought this one in. */
  importedBy?: string;
  /** Why it was loaded after start, e.g. `read src/api/x.ts`; absent for files loaded at start. */
  loadedFor?: string;
}

/** A `.claude/rules/*.md` file with `paths:` globs: loaded when a tool reads a file they match. */
export interface ConditionalRule {
  path: string;
  content: string;
  match: (absPath: string) => boolean;
}

export interface InstructionContext {
  cairnHome: string;
  /** `~/.claude` (CLAUDE_CONFIG_DIR moves it): see claudeHomeFrom. */
  claudeHome: string;
  cwd: string;
  /** For `@~/...` imports; default the OS home. */
  home?: string;
  onProblem?: ReportProblem;
  /** A Read deny rule covers this path: such a file is never put in the prompt, imported or not. */
  isReadDenied?: (absPath: string) => boolean;
  /** The settings' claudeMdExcludes cover this path: the file is skipped, as the user asked. */
  isExcluded?: (absPath: string) => boolean;
}

/** Claude Code warns past this many characters in one file: all of it goes with every request. */
export const INSTRUCTION_SIZE_WARNING = 40_000;
// Claude Code skips memory files over 4 MiB.
const MAX_INSTRUCTION_BYTES = 4 * 1024 * 1024;

/**
 * Reads instruction files once each (by real path and by identical content, so a CLAUDE.md linked
 * to AGENTS.md is one file), following `@path` imports, and collects conditional rules. The state
 * is kept so files found later (a subfolder's CLAUDE.md) are not added twice.
 */
export function createInstructionReader(ctx: InstructionContext, projectRoot: string) {
  const seenPaths = new Set<string>();
  const seenContent = new Set<string>();
  const conditional: ConditionalRule[] = [];
  const loaded: InstructionFile[] = [];
  const report = (message: string) => ctx.onProblem?.(message);
  const home = ctx.home ?? os.homedir();

  /** The file, then the files it imports; appended to `out` and to `loaded`. */
  async function add(file: string, out: InstructionFile[], from: { importedBy?: string; depth?: number; chain?: string[]; loadedFor?: string } = {}): Promise<void> {
    const read = await readInstructionFile(file);
    if (read === undefined) return;
    if ('problem' in read) return report(`Instruction file ${read.problem}; it is left out of the system prompt`);
    if (ctx.isExcluded?.(file) || ctx.isExcluded?.(read.real)) return;
    if (ctx.isReadDenied?.(read.real)) return report(`Instruction file ${file} is covered by a Read deny rule; it is left out of the system prompt`);
    let content = read.content;
    if (isRuleFile(file)) {
      const fm = parseLenientFrontmatter(content);
      if ('problem' in fm) return report(`Instruction file ${file}: ${fm.problem}; it is left out of the system prompt`);
      content = fm.body;
    }
    const trimmed = stripHtmlComments(content).trim();
    if (seenPaths.has(read.real) || trimmed === '' || seenContent.has(trimmed)) return;
    seenPaths.add(read.real);
    seenContent.add(trimmed);
    if (trimmed.length > INSTRUCTION_SIZE_WARNING) {
      report(`Instruction file ${file} is ${trimmed.length.toLocaleString('en-US')} characters (over ${INSTRUCTION_SIZE_WARNING.toLocaleString('en-US')}): all of it is sent with every request. Split it into .claude/rules/ files or @imports`);
    }
    const entry: InstructionFile = { path: file, content: trimmed, ...(from.importedBy ? { importedBy: from.importedBy } : {}), ...(from.loadedFor ? { loadedFor: from.loadedFor } : {}) };
    out.push(entry);
    loaded.push(entry);
    const depth = from.depth ?? 0;
    const chain = [...(from.chain ?? []), read.real];
    for (const spec of findImports(trimmed)) {
      const target = resolveImport(spec, file, home);
      const said = `${file} imports @${spec}`;
      if (!(await exists(target))) {
        if (looksLikePath(spec)) report(`${said}: ${target} does not exist; the import is left out`);
        continue;
      }
      const real = await fs.realpath(target).catch(() => target);
      if (chain.includes(real)) {
        report(`${said}, which imports ${file} again (a cycle); each file is loaded once`);
        continue;
      }
      if (depth + 1 > MAX_IMPORT_DEPTH) {
        report(`${said}: imports nest more than ${MAX_IMPORT_DEPTH} levels deep (as in Claude Code); ${target} is left out`);
        continue;
      }
      if (!mayImport(read.real, real)) {
        report(`${said}: ${target} is outside the project, and a project's files cannot pull in files from elsewhere; import it from ${path.join(ctx.claudeHome, 'CLAUDE.md')} instead. Left out`);
        continue;
      }
      await add(target, out, { importedBy: file, depth: depth + 1, chain, ...(from.loadedFor ? { loadedFor: from.loadedFor } : {}) });
    }
  }

  // The user's own files may import anything; a project's (a cloned repository) may import inside
  // the project, and Markdown under ~/.claude (Claude Code's documented per-user pattern), never
  // e.g. ~/.ssh/id_rsa or ~/.claude/.credentials.json.
  function mayImport(importer: string, target: string): boolean {
    const userOwned = [ctx.claudeHome, ctx.cairnHome].some((dir) => within(dir, importer));
    if (userOwned) return true;
    if (within(projectRoot, target)) return true;
    return within(ctx.claudeHome, target) && target.endsWith('.md') && !path.relative(ctx.claudeHome, target).split(path.sep).some((part) => part.startsWith('.'));
  }

  /** `<dir>/.claude/rules/**\/*.md` sorted: rules without `paths:` are added to `out`, the others kept for later. */
  async function addRules(rulesDir: string, base: string, out: InstructionFile[], loadedFor?: string): Promise<void> {
    for (const file of await listMarkdown(rulesDir, report)) {
      const text = await readInstructionFile(file);
      if (text === undefined || 'problem' in text) {
        await add(file, out); // reports the problem
        continue;
      }
      const fm = parseLenientFrontmatter(text.content);
      if ('problem' in fm) {
        report(`Instruction file ${file}: ${fm.problem}; it is left out of the system prompt`);
        continue;
      }
      for (const warning of fm.warnings) report(`Instruction file ${file}: ${warning}`);
      const globs = pathGlobs(fm.data?.['paths']);
      if (globs === undefined) {
        await add(file, out, loadedFor ? { loadedFor } : {});
        continue;
      }
      if (typeof globs === 'string') {
        report(`Instruction file ${file}: paths: ${globs}; the rule is left out`);
        continue;
      }
      const matcher = picomatch(globs, { dot: true });
      conditional.push({
        path: file,
        content: fm.body.trim(),
        match: (abs) => {
          const rel = path.relative(base, abs);
          return !rel.startsWith('..') && !path.isAbsolute(rel) && matcher(rel.split(path.sep).join('/'));
        },
      });
    }
  }

  return { add, addRules, conditional, loaded, seen: (real: string) => seenPaths.has(real) };
}

export type InstructionReader = ReturnType<typeof createInstructionReader>;

function isRuleFile(file: string): boolean {
  return file.split(path.sep).join('/').includes('/.claude/rules/');
}

/** `paths:` as a list of globs or one comma-separated string; undefined when absent; a string saying what is wrong. */
function pathGlobs(value: unknown): string[] | undefined | string {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list) || !list.every((g) => typeof g === 'string')) return 'expected a glob or a list of globs';
  const globs = list.map((g: string) => g.trim()).filter(Boolean);
  return globs.length > 0 ? globs : undefined;
}

export function within(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.stat(file);
    return true;
  } catch {
    return false; // absent, or a link to nothing: either way there is nothing to import
  }
}

async function listMarkdown(dir: string, report: ReportProblem): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await fs.readdir(dir, { recursive: true })).map(String);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') report(`Instruction rules folder ${dir}: cannot list it: ${code ?? errorMessage(error)}`);
    return [];
  }
  return entries.filter((name) => name.endsWith('.md')).sort().map((name) => path.join(dir, name));
}

/** Its real path and text; undefined when absent; a problem naming it when it cannot be read. */
async function readInstructionFile(file: string): Promise<{ real: string; content: string } | { problem: string } | undefined> {
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a file where a folder is expected. ENOENT: absent, or a symlink to nothing (said).
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      const target = await danglingLinkTarget(file);
      return target === undefined ? undefined : { problem: `${file}: is a symbolic link to ${target}, which does not exist` };
    }
    return { problem: `${file}: cannot resolve: ${code ?? errorMessage(error)}` };
  }
  try {
    const content = await readTextFile(real, { maxBytes: MAX_INSTRUCTION_BYTES });
    return content === undefined ? undefined : { real, content };
  } catch (error) {
    return { problem: errorMessage(error) };
  }
}
