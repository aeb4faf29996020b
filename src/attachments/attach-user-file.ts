import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AttachmentBlock } from '../messages.js';
import { isInside } from '../permissions/paths.js';
import { attachableType, attachFile, AttachmentProblem } from './attach-file.js';
import type { ImageLimits } from './image-limits.js';

/** What a user-given file became: the attachment, or why it is not one (naming the file). */
export type UserFileResult = { block: AttachmentBlock } | { problem: string };

export interface UserFileRules {
  /** The workspace root: relative paths start here. */
  root: string;
  /** The user's Read deny rules (they hold for what the user names too, as in Claude Code). */
  readDenied: (abs: string) => boolean;
  limits: ImageLimits;
  /**
   * A path the user dropped or pasted whole may be anywhere (a screenshot on the desktop); an
   * `@` mention reaches only inside the workspace, like a text mention.
   */
  workspaceOnly: boolean;
}

/**
 * An image or PDF the user named (an `@` mention, a dropped or pasted path) as an attachment,
 * after the same checks a read would get. Never throws: a problem comes back as a sentence.
 */
export async function attachUserFile(given: string, rules: UserFileRules): Promise<UserFileResult> {
  const abs = path.resolve(rules.root, given);
  const shown = isInside(rules.root, abs) ? path.relative(rules.root, abs).split(path.sep).join('/') : given;
  const name = path.basename(abs);
  let real: string;
  try {
    real = await realpath(abs);
  } catch {
    return { problem: `${shown} cannot be attached: no such file.` };
  }
  if (rules.workspaceOnly) {
    const realRoot = await realpath(rules.root).catch(() => rules.root);
    if (!isInside(realRoot, real)) return { problem: `${shown} cannot be attached: it is outside the workspace (${rules.root}).` };
  }
  if (rules.readDenied(abs) || rules.readDenied(real)) return { problem: `${shown} cannot be attached: a Read deny rule covers it.` };
  try {
    return { block: await attachFile(real, name, rules.limits) };
  } catch (error) {
    if (error instanceof AttachmentProblem) return { problem: error.message.startsWith(name) && shown !== name ? `${shown}${error.message.slice(name.length)}` : error.message };
    return { problem: `${shown} cannot be attached: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Whether `given` (relative to `root`) names an existing image or PDF (by content, else by name), wherever it points. */
export async function namesAttachableFile(given: string, root: string): Promise<boolean> {
  const abs = path.resolve(root, given);
  const info = await stat(abs).catch(() => undefined);
  if (!info?.isFile()) return false;
  return (await attachableType(abs)) !== undefined;
}
