import fs from 'node:fs';
import path from 'node:path';

// A workspace's .cairn/ holds project files worth committing (settings.json, agents/, AGENT.md,
// MEMORY.md) beside files that belong to one machine and its sessions. The first time cairn writes
// into it, it adds a .gitignore for the second kind, so using cairn does not dirty the repository.
// Runtime files (locks, logs) never go here at all: they live under $CAIRN_HOME.

export const CAIRN_DIR = '.cairn';

/** What .cairn/.gitignore leaves out of the repository. */
export const LOCAL_ENTRIES = [
  'settings.local.json',
  'scheduled_tasks.json',
  'team/',
  'tasks/',
  'memory/',
  '*.tmp',
] as const;

export const CAIRN_GITIGNORE = `# Written by cairn: files of this machine and its sessions, not of the repository.\n${LOCAL_ENTRIES.join('\n')}\n`;

/** <workspace>/.cairn */
export function cairnDir(workspace: string): string {
  return path.join(workspace, CAIRN_DIR);
}

/** Creates `dir` (a workspace's .cairn) and, when it has none, its .gitignore. Other folders are only created. */
export function prepareCairnDirSync(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  if (path.basename(dir) !== CAIRN_DIR) return;
  try {
    fs.writeFileSync(path.join(dir, '.gitignore'), CAIRN_GITIGNORE, { flag: 'wx' });
  } catch (err) {
    // EEXIST: the user's own (or ours from before) stays as it is.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

export async function prepareCairnDir(dir: string): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true });
  if (path.basename(dir) !== CAIRN_DIR) return;
  try {
    await fs.promises.writeFile(path.join(dir, '.gitignore'), CAIRN_GITIGNORE, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
