import fs from 'node:fs/promises';
import path from 'node:path';
import { projectDir } from './session-paths.js';

export interface SessionSummary {
  id: string;
  file: string;
  modified: Date;
  firstPrompt: string;
  messageCount: number;
}

/** Sessions of one workspace, newest first. Unreadable files are listed with what could be read. */
export async function listSessions(cairnHome: string, cwd: string): Promise<SessionSummary[]> {
  const dir = projectDir(cairnHome, cwd);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.jsonl'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const summaries = await Promise.all(names.map((name) => summarize(path.join(dir, name))));
  return summaries.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

async function summarize(file: string): Promise<SessionSummary> {
  const [stat, text] = await Promise.all([fs.stat(file), fs.readFile(file, 'utf8')]);
  let firstPrompt = '';
  let messageCount = 0;
  // A cheap scan: no full parse of every record.
  for (const line of text.split('\n')) {
    if (line.startsWith('{"type":"user_prompt"')) {
      messageCount++;
      if (!firstPrompt) {
        try {
          firstPrompt = String((JSON.parse(line) as { text: string }).text);
        } catch {
          // a torn line: keep looking
        }
      }
    } else if (line.startsWith('{"type":"assistant"')) messageCount++;
  }
  return { id: path.basename(file, '.jsonl'), file, modified: stat.mtime, firstPrompt, messageCount };
}
