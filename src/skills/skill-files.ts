import fs from 'node:fs/promises';
import path from 'node:path';

const MAX_FILES = 200;
const MAX_DEPTH = 4;
const SKIP = new Set(['node_modules', '.git', '__pycache__']);

/**
 * The files beside a skill's SKILL.md (scripts, references, templates), as absolute paths, sorted;
 * at most MAX_FILES of them. Symbolic links are listed, not followed, so a link cannot loop the walk.
 */
export async function skillFiles(dir: string): Promise<{ files: string[]; more: boolean; problems: string[] }> {
  const files: string[] = [];
  const problems: string[] = [];
  let more = false;
  const walk = async (at: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(at, { withFileTypes: true });
    } catch (error) {
      problems.push(`${at}: cannot list (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) await walk(full, depth + 1);
        continue;
      }
      if (full === path.join(dir, 'SKILL.md')) continue;
      if (files.length >= MAX_FILES) {
        more = true;
        return;
      }
      files.push(full);
    }
  };
  await walk(dir, 0);
  return { files, more, problems };
}
