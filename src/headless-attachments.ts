import { imageLimitsFor } from './attachments/image-limits.js';
import { prepareInputMedia, type InputMedia } from './attachments/input-media.js';
import { errorMessage } from './util/error-message.js';
import type { AttachmentBlock } from './messages.js';
import { attachMentionedFiles } from './mentions/mention-attachments.js';
import type { Runtime } from './bootstrap.js';

/** A headless prompt with what it attaches, or the problems that keep it from being sent. */
export type ReadyPrompt = { text: string; attachments: AttachmentBlock[] } | { problems: string[] };

/**
 * What `cairn -p` sends for one user message: its `@` mentions of images and PDFs attached, and
 * the images and documents a stream-json message carried, each checked and scaled for the
 * provider. One file that cannot go stops the message: nothing is sent half.
 */
export async function readyHeadlessPrompt(runtime: Runtime, text: string, media: readonly InputMedia[] = []): Promise<ReadyPrompt> {
  const limits = imageLimitsFor(runtime.session.provider);
  const problems: string[] = [];
  const attachments: AttachmentBlock[] = [];
  for (const m of media) {
    try {
      attachments.push(await prepareInputMedia(m, limits));
    } catch (error) {
      problems.push(errorMessage(error));
    }
  }
  const mentioned = await attachMentionedFiles(text, { root: runtime.cwd, readDenied: await runtime.session.permissions.readDeniedMatcher(), limits });
  problems.push(...mentioned.problems);
  attachments.push(...mentioned.blocks);
  return problems.length > 0 ? { problems } : { text, attachments };
}
