import fs from 'node:fs/promises';
import path from 'node:path';
import { prepareCairnDir } from '../util/cairn-dir.js';
import { readTextFile } from '../util/read-text-file.js';

export type MemoryScope = 'user' | 'project';

export function memoryPath(scope: MemoryScope, ctx: { cairnHome: string; cwd: string }): string {
  return scope === 'user' ? path.join(ctx.cairnHome, 'memory', 'MEMORY.md') : path.join(ctx.cwd, '.cairn', 'MEMORY.md');
}

const HEADER: Record<MemoryScope, string> = {
  user: '# Memory (user)\n\nThings to remember in every project.\n\n',
  project: '# Memory (project)\n\nThings to remember in this project.\n\n',
};

/** Entries are the file's `- ` lines, numbered from 1 in file order. */
export function parseEntries(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
}

/** The memory file's text; '' when absent. Throws FileReadError naming it (a FIFO, a directory, EACCES). */
export async function readMemory(file: string): Promise<string> {
  return (await readTextFile(file)) ?? '';
}

export async function saveMemory(scope: MemoryScope, ctx: { cairnHome: string; cwd: string }, text: string, now: Date): Promise<{ file: string; entry: string }> {
  return appendEntry(memoryPath(scope, ctx), HEADER[scope], text, now);
}

/** Appends `- [stamp] text` (one line) to an entry file, starting it with `header` when it is new or empty. */
export async function appendEntry(file: string, header: string, text: string, now: Date): Promise<{ file: string; entry: string }> {
  const current = await readMemory(file);
  const stamp = now.toISOString().slice(0, 16).replace('T', ' ');
  const entry = `[${stamp}] ${text.replace(/\s*\n\s*/g, ' ').trim()}`;
  const body = (current || header).replace(/\n*$/, '\n');
  await prepareCairnDir(path.dirname(file));
  await fs.writeFile(file, `${body}- ${entry}\n`);
  return { file, entry };
}

/** Removes entry n (1-based). Returns the removed entry, or undefined when there is no such entry. */
export async function forgetMemory(scope: MemoryScope, ctx: { cairnHome: string; cwd: string }, n: number): Promise<string | undefined> {
  const file = memoryPath(scope, ctx);
  const current = await readMemory(file);
  let seen = 0;
  let removed: string | undefined;
  const kept = current.split('\n').filter((line) => {
    if (!line.startsWith('- ')) return true;
    seen++;
    if (seen === n) {
      removed = line.slice(2);
      return false;
    }
    return true;
  });
  if (removed === undefined) return undefined;
  await fs.writeFile(file, kept.join('\n'));
  return removed;
}
