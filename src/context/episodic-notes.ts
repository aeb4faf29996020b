import fs from 'node:fs/promises';
import path from 'node:path';
import { prepareCairnDir } from '../util/cairn-dir.js';
import { readTextFile } from '../util/read-text-file.js';

// Episodic memory: one markdown file a day under the project's .cairn/memory/, each entry a
// `## HH:MM UTC: ...` heading and what compaction (or archival at start) distilled. Never put in
// the prompt whole: the model searches it when the user refers to earlier work.

const NOTE_NAME = /^\d{4}-\d{2}-\d{2}\.md$/;
/** An entry's heading; a summary's own `##` headings (`## Memory updates`) stay inside its entry. */
const ENTRY_HEADING = /^## \d{2}:\d{2} UTC: /;

/** <workspace>/.cairn/memory */
export function episodicDir(cwd: string): string {
  return path.join(cwd, '.cairn', 'memory');
}

/** Appends one entry to the day's note; returns the file. */
export async function appendEpisodicEntry(cwd: string, when: Date, heading: string, body: string): Promise<string> {
  const file = path.join(episodicDir(cwd), `${when.toISOString().slice(0, 10)}.md`);
  await prepareCairnDir(path.join(cwd, '.cairn'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.appendFile(file, `## ${when.toISOString().slice(11, 16)} UTC: ${heading}\n\n${body.trim()}\n\n`);
  return file;
}

export interface EpisodicNote {
  file: string;
  /** YYYY-MM-DD */
  day: string;
  chars: number;
  entries: number;
}

/** The dated notes, oldest first; none when the folder does not exist. Other files there are left alone. */
export async function listEpisodicNotes(cwd: string): Promise<EpisodicNote[]> {
  let names: string[];
  try {
    names = (await fs.readdir(episodicDir(cwd))).filter((n) => NOTE_NAME.test(n)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const notes: EpisodicNote[] = [];
  for (const name of names) {
    const file = path.join(episodicDir(cwd), name);
    const text = (await readTextFile(file)) ?? '';
    notes.push({ file, day: name.slice(0, 10), chars: text.length, entries: text.split('\n').filter((l) => ENTRY_HEADING.test(l)).length });
  }
  return notes;
}

export interface EpisodicMatch {
  day: string;
  /** The entry's heading (`HH:MM UTC: compaction (auto), ...`). */
  heading: string;
  /** The matching lines of that entry. */
  lines: string[];
}

/**
 * The entries whose text holds every word of `query` (any case), newest day first, with the lines
 * that hold any of them. At most `limit` entries; notes a Read deny rule covers are left out.
 */
export async function searchEpisodicNotes(cwd: string, query: string, opts: { limit?: number; isReadDenied?: (absPath: string) => boolean } = {}): Promise<EpisodicMatch[]> {
  const limit = opts.limit ?? 10;
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return [];
  const matches: EpisodicMatch[] = [];
  for (const note of (await listEpisodicNotes(cwd)).reverse()) {
    // A Read deny rule covers the notes as it covers any file: the search leaves them out.
    if (opts.isReadDenied?.(note.file)) continue;
    const text = (await readTextFile(note.file)) ?? '';
    for (const entry of splitEntries(text).reverse()) {
      const lower = entry.body.toLowerCase();
      if (!words.every((w) => lower.includes(w) || entry.heading.toLowerCase().includes(w))) continue;
      const lines = entry.body.split('\n').filter((l) => words.some((w) => l.toLowerCase().includes(w)));
      matches.push({ day: note.day, heading: entry.heading, lines });
      if (matches.length >= limit) return matches;
    }
  }
  return matches;
}

function splitEntries(text: string): { heading: string; body: string }[] {
  const entries: { heading: string; body: string }[] = [];
  for (const line of text.split('\n')) {
    const current = entries.at(-1);
    if (ENTRY_HEADING.test(line)) entries.push({ heading: line.slice(3), body: '' });
    else if (current) current.body += `${line}\n`;
  }
  return entries;
}
