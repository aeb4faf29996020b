// The page's rename and export buttons: the same engine functions as /rename and /export in the terminal.
import { exportSession, type ExportFormat } from '../session/session-export.js';
import { listSessions } from '../session/session-list.js';
import { nameSession } from '../session/session-names.js';
import { HttpError } from './http-error.js';

/** Names a session of workspace `cwd` (one name a session, unique in the workspace); resolves to the name given. */
export async function renameServedSession(cairnHome: string, cwd: string, id: string, name: string): Promise<{ name: string; previous?: string }> {
  const named = await nameSession(cairnHome, cwd, id, name);
  if ('problem' in named) throw new HttpError(400, `rename: ${named.problem}`);
  return named;
}

/** A session of workspace `cwd` as Markdown or its event stream, with the file name a download should take. */
export async function exportServedSession(cairnHome: string, cwd: string, id: string, format: ExportFormat): Promise<{ text: string; fileName: string; warnings: string[] }> {
  const mine = (await listSessions(cairnHome, cwd)).find((s) => s.id === id);
  if (!mine) throw new HttpError(409, 'export: this session has no file yet (nothing was said in it)');
  const result = await exportSession(mine.file, format, mine.name);
  const stem = `cairn-${(mine.name ?? id.slice(0, 8)).replace(/[^\w.-]+/g, '-')}`;
  return { text: result.text, fileName: `${stem}.${format === 'json' ? 'jsonl' : 'md'}`, warnings: result.warnings };
}
