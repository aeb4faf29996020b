import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import type { ReportProblem } from '../util/problem-reporter.js';
import { danglingLinkTarget, readTextFile } from '../util/read-text-file.js';

export interface InstructionFile {
  path: string;
  content: string;
}

const PER_DIRECTORY = ['AGENT.md', 'AGENTS.md', 'CLAUDE.md', path.join('.cairn', 'AGENT.md')];

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

/**
 * Instruction files, in order: $CAIRN_HOME/AGENT.md, then from the git root down to the
 * workspace each directory's AGENT.md, AGENTS.md, CLAUDE.md and .cairn/AGENT.md.
 * De-duplicated by real path and by identical content (a CLAUDE.md symlinked to AGENTS.md).
 * Absent files are the common case; one that exists but cannot be read (permissions, a FIFO, a
 * directory) is left out of the prompt and reported through `onProblem` naming it.
 */
export async function loadInstructionFiles(cairnHome: string, cwd: string, onProblem?: ReportProblem): Promise<InstructionFile[]> {
  const root = (await findGitRoot(cwd)) ?? cwd;
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  const candidates = [path.join(cairnHome, 'AGENT.md'), ...dirs.flatMap((d) => PER_DIRECTORY.map((f) => path.join(d, f)))];
  const seenPaths = new Set<string>();
  const seenContent = new Set<string>();
  const out: InstructionFile[] = [];
  for (const candidate of candidates) {
    const read = await readInstructionFile(candidate);
    if (read === undefined) continue;
    if ('problem' in read) {
      onProblem?.(`Instruction file ${read.problem}; it is left out of the system prompt`);
      continue;
    }
    const trimmed = read.content.trim();
    if (seenPaths.has(read.real) || trimmed === '' || seenContent.has(trimmed)) continue;
    seenPaths.add(read.real);
    seenContent.add(trimmed);
    out.push({ path: candidate, content: trimmed });
  }
  return out;
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
    const content = await readTextFile(real);
    return content === undefined ? undefined : { real, content };
  } catch (error) {
    return { problem: errorMessage(error) };
  }
}
