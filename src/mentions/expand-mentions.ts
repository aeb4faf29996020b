import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../permissions/paths.js';
import { readTextFile } from '../util/read-text-file.js';
import { errorMessage } from '../util/error-message.js';
import { namesAttachableFile } from '../attachments/attach-user-file.js';

/** What one `@` mention attached: shown as a chip in place of the mention. */
export interface Attachment {
  readonly mention: string;
  readonly path: string;
  readonly kind: 'file' | 'dir';
  /** Lines of a file, entries of a folder. */
  readonly size: number;
  readonly problem?: string;
}

/** Characters of one file attached; a longer file is cut and says so (read_file can page on). */
export const MENTION_CHAR_LIMIT = 100_000;
const DIR_ENTRY_LIMIT = 500;

const MENTION = /(^|\s)@((?:[^\s\\]|\\ )+)/g;

function mentionOf(raw: string): string {
  return raw.replace(/[,;:!?)]+$/, '').replace(/\.$/, '');
}

/** The `@path` mentions of a prompt, in order, each once (a trailing punctuation mark is not part of it). */
export function findMentions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const raw = mentionOf(m[2] ?? '');
    if (raw !== '' && !out.includes(raw)) out.push(raw);
  }
  return out;
}

/**
 * Attaches what the prompt's `@path` mentions name, inside the workspace: a file's content, a
 * folder's listing (`@dir/`). The model gets the prompt and then each attachment in a tag naming
 * its path; a mention that names nothing there stays plain text. The user typed these, so no
 * approval is asked; a path outside the workspace (`@../x`, `@/etc/passwd`, a link leading out)
 * is not read.
 */
export async function expandMentions(text: string, root: string, readDenied: (abs: string) => boolean = () => false): Promise<{ text: string; attachments: Attachment[] }> {
  const attachments: Attachment[] = [];
  const blocks: string[] = [];
  const realRoot = await realpath(root).catch(() => root);
  for (const mention of findMentions(text)) {
    const rel = mention.replace(/\\ /g, ' ');
    const abs = path.resolve(root, rel);
    let real: string;
    try {
      real = await realpath(abs);
    } catch {
      continue; // names nothing: plain text
    }
    // Images and PDFs go as attachments, not text (mention-attachments.ts).
    if (await namesAttachableFile(rel, root)) continue;
    if (!isInside(realRoot, real)) continue;
    const shown = path.relative(root, abs).split(path.sep).join('/') || '.';
    // The user's Read deny rules hold for what they mention too (as in Claude Code): not attached, said in the chip.
    if (readDenied(abs) || readDenied(real)) {
      attachments.push({ mention, path: shown, kind: 'file', size: 0, problem: 'denied by a Read rule' });
      continue;
    }
    try {
      const info = await stat(real);
      if (info.isDirectory()) {
        const entries = (await readdir(real, { withFileTypes: true })).map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
        const listed = entries.slice(0, DIR_ENTRY_LIMIT);
        const more = entries.length > listed.length ? `\n… ${entries.length - listed.length} more entries` : '';
        blocks.push(`<directory path="${shown}/">\n${listed.join('\n')}${more}\n</directory>`);
        attachments.push({ mention, path: `${shown}/`, kind: 'dir', size: entries.length });
        continue;
      }
      const content = (await readTextFile(real)) ?? '';
      const cut = content.length > MENTION_CHAR_LIMIT;
      const body = cut ? `${content.slice(0, MENTION_CHAR_LIMIT)}\n… cut at ${MENTION_CHAR_LIMIT} of ${content.length} characters; read_file can read the rest` : content;
      blocks.push(`<file path="${shown}">\n${body.replace(/\n$/, '')}\n</file>`);
      attachments.push({ mention, path: shown, kind: 'file', size: content === '' ? 0 : content.replace(/\n$/, '').split('\n').length });
    } catch (error) {
      attachments.push({ mention, path: shown, kind: 'file', size: 0, problem: errorMessage(error) });
      blocks.push(`<file path="${shown}" error="could not be read: ${errorMessage(error).replace(/"/g, "'")}" />`);
    }
  }
  if (blocks.length === 0) return { text, attachments };
  return { text: `${text}\n\nFiles the user attached with @:\n${blocks.join('\n')}`, attachments };
}

/** The prompt as the transcript shows it: each attached mention as a chip. */
export function withChips(text: string, attachments: readonly Attachment[]): string {
  return text.replace(MENTION, (whole: string, before: string, raw: string) => {
    const mention = mentionOf(raw);
    const a = attachments.find((x) => x.mention === mention);
    if (!a) return whole;
    const what = a.problem ? (a.problem.startsWith('denied') ? 'not attached: denied by a Read rule' : 'unreadable') : a.kind === 'dir' ? `${a.size} entries` : `${a.size} lines`;
    return `${before}[@${a.path} · ${what}]${raw.slice(mention.length)}`;
  });
}
