import path from 'node:path';
import { attachmentChip } from '../../src/attachments/attachment-label.js';
import { attachUserFile, namesAttachableFile } from '../../src/attachments/attach-user-file.js';
import { imageLimitsFor } from '../../src/attachments/image-limits.js';
import { readClipboardImage } from '../../src/attachments/clipboard-image.js';
import { prepareInputMedia } from '../../src/attachments/input-media.js';
import type { AttachmentBlock } from '../../src/messages.js';
import { errorMessage } from '../../src/util/error-message.js';
import { insertAttachment, insertPaste } from '../prompt/editor.js';
import type { AppContext } from './app-context.js';

/** An attachment joins the draft at the cursor as its chip (Backspace on it takes it out again). */
export function addToDraft(block: AttachmentBlock, ctx: AppContext): void {
  const editor = ctx.store.getSnapshot().editor;
  ctx.store.dispatch({ type: 'editor', editor: insertAttachment(editor, attachmentChip(block), block) });
}

/**
 * A paste that was only paths (a file dropped on the terminal): each image or PDF becomes a chip
 * in the draft; one that cannot be attached is a notice naming it and why. A paste naming no
 * existing image or PDF was text after all, and goes into the draft as typed.
 */
export async function attachDroppedFiles(paths: readonly string[], pasted: string, ctx: AppContext): Promise<void> {
  try {
    await whileAttaching(paths, ctx, () => attachEach(paths, pasted, ctx));
  } catch (error) {
    ctx.store.dispatch({ type: 'notice', level: 'error', message: `Not attached: ${paths.join(', ')}: ${errorMessage(error)}` });
  }
}

/** Marks the files as on their way into the draft while `work` runs (Enter waits for them: dispatch.ts). */
async function whileAttaching<T>(names: readonly string[], ctx: AppContext, work: () => Promise<T>): Promise<T> {
  const marks = names.map((name) => `${name}#${Math.random()}`);
  for (const mark of marks) ctx.attaching.add(mark);
  try {
    return await work();
  } finally {
    for (const mark of marks) ctx.attaching.delete(mark);
  }
}

/** The names of the files still being attached, for the notice that Enter waits for them. */
export function attachingNames(ctx: AppContext): string[] {
  return [...ctx.attaching].map((mark) => path.basename(mark.slice(0, mark.lastIndexOf('#'))));
}

async function attachEach(paths: readonly string[], pasted: string, ctx: AppContext): Promise<void> {
  const root = ctx.store.getSnapshot().info.cwd;
  const found = await Promise.all(paths.map((p) => namesAttachableFile(p, root)));
  if (!found.some(Boolean)) {
    ctx.store.dispatch({ type: 'editor', editor: insertPaste(ctx.store.getSnapshot().editor, pasted) });
    return;
  }
  const readDenied = await ctx.session.permissions.readDeniedMatcher();
  const limits = imageLimitsFor(ctx.session.provider);
  for (const file of paths) {
    // A dropped file may be anywhere (a screenshot on the desktop): the user handed it over. Read deny rules still hold.
    const result = await attachUserFile(file, { root, readDenied, limits, workspaceOnly: false });
    if ('block' in result) addToDraft(result.block, ctx);
    else ctx.store.dispatch({ type: 'notice', level: 'error', message: `Not attached: ${result.problem}` });
  }
}

let clipboardCount = 0;

/** Ctrl+V: the clipboard's image joins the draft as a chip; no image, or no tool to read it, is a one-line notice saying which. */
export async function pasteClipboardImage(ctx: AppContext): Promise<void> {
  await whileAttaching(['the clipboard image'], ctx, () => attachClipboardImage(ctx));
}

async function attachClipboardImage(ctx: AppContext): Promise<void> {
  const got = await readClipboardImage({ env: process.env, platform: process.platform });
  if ('problem' in got) {
    ctx.store.dispatch({ type: 'notice', level: 'warning', message: got.problem });
    return;
  }
  clipboardCount += 1;
  const name = `clipboard-${clipboardCount}.${got.media.mediaType.split('/')[1] === 'jpeg' ? 'jpg' : got.media.mediaType.split('/')[1]}`;
  try {
    addToDraft(await prepareInputMedia({ ...got.media, name }, imageLimitsFor(ctx.session.provider)), ctx);
  } catch (error) {
    ctx.store.dispatch({ type: 'notice', level: 'error', message: `Not attached: ${errorMessage(error)}` });
  }
}
