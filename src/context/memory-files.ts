import fs from 'node:fs/promises';
import path from 'node:path';

export interface MemoryFile {
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
 */
export async function loadMemoryFiles(cairnHome: string, cwd: string): Promise<MemoryFile[]> {
  const root = (await findGitRoot(cwd)) ?? cwd;
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  const candidates = [path.join(cairnHome, 'AGENT.md'), ...dirs.flatMap((d) => PER_DIRECTORY.map((f) => path.join(d, f)))];
  const seenPaths = new Set<string>();
  const seenContent = new Set<string>();
  const out: MemoryFile[] = [];
  for (const candidate of candidates) {
    let real: string;
    let content: string;
    try {
      real = await fs.realpath(candidate);
      content = await fs.readFile(real, 'utf8');
    } catch {
      continue; // absent files are the common case
    }
    const trimmed = content.trim();
    if (seenPaths.has(real) || trimmed === '' || seenContent.has(trimmed)) continue;
    seenPaths.add(real);
    seenContent.add(trimmed);
    out.push({ path: candidate, content: trimmed });
  }
  return out;
}
