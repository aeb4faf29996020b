import { expandMentions, findMentions, withChips } from '../../src/mentions/expand-mentions.js';
import { errorMessage } from '../../src/util/error-message.js';
import { imageLimitsFor } from '../../src/attachments/image-limits.js';
import type { AttachmentBlock } from '../../src/messages.js';
import { attachMentionedFiles, withAttachmentChips } from '../../src/mentions/mention-attachments.js';
import { runSlash } from '../commands/registry.js';
import { shellCommandOf } from '../prompt/shell-prompt.js';
import type { AppContext } from './app-context.js';
import { askToSaveMemory } from './memory-note.js';

/**
 * Sends what the prompt holds: `/...` runs a command, `# note` asks where to save it, `!cmd` runs in
 * the shell, anything else goes to the model (queued while a turn runs). `shown`: the prompt as
 * the box showed it, large pastes as placeholders (the transcript folds them).
 */
export function submit(text: string, ctx: AppContext, shown?: string, attachments: readonly AttachmentBlock[] = []): void {
  // As typed (a command's name, not its expansion; not the files mentions attach): auto mode's classifier reads it as the user's intent.
  if (!text.trimStart().startsWith('#')) ctx.session.noteUserPrompt(text);
  if (text.trimStart().startsWith('/')) {
    void runSlash(text, ctx);
    return;
  }
  if (askToSaveMemory(text, ctx)) return;
  ctx.onPrompt?.(text);
  const command = shellCommandOf(text);
  if (command !== undefined) {
    toBottom(ctx);
    // Typed while a turn runs, it waits its turn among the queued prompts.
    if (ctx.store.getSnapshot().busy) ctx.store.dispatch({ type: 'queue', text });
    void ctx.session.runShell(command, text);
    return;
  }
  if (findMentions(text).length > 0) return void sendWithMentions(text, ctx, shown, attachments);
  send(text, ctx, shown, attachments);
}

/**
 * `@path` mentions: text files attached to what is sent, images and PDFs as attachments, shown as
 * chips in the transcript. An image or PDF that cannot go keeps the whole prompt back (a notice
 * names the file and why; the draft comes back to fix).
 */
async function sendWithMentions(text: string, ctx: AppContext, shown: string | undefined, chips: readonly AttachmentBlock[]): Promise<void> {
  let denied: (abs: string) => boolean;
  try {
    denied = await ctx.session.permissions.readDeniedMatcher();
  } catch (error) {
    // Nothing is attached that the rules were not checked for: the prompt goes as typed.
    ctx.store.dispatch({ type: 'notice', level: 'warning', message: `Mentioned files not attached: ${errorMessage(error)}` });
    return send(text, ctx, shown, chips);
  }
  const root = ctx.store.getSnapshot().info.cwd;
  const media = await attachMentionedFiles(text, { root, readDenied: denied, limits: imageLimitsFor(ctx.session.provider) });
  if (media.problems.length > 0) {
    for (const problem of media.problems) ctx.store.dispatch({ type: 'notice', level: 'error', message: `Not sent: ${problem}` });
    if (ctx.store.getSnapshot().editor.text === '') ctx.store.dispatch({ type: 'editor', editor: { text, cursor: text.length, pastes: [] } });
    return;
  }
  try {
    const { text: expanded, attachments } = await expandMentions(text, root, denied);
    const display = withAttachmentChips(attachments.length ? withChips(shown ?? text, attachments) : (shown ?? text), media.chips);
    send(expanded, ctx, display === text ? shown : display, [...chips, ...media.blocks]);
  } catch (error) {
    ctx.store.dispatch({ type: 'notice', level: 'warning', message: `Mentioned files not attached: ${errorMessage(error)}` });
    send(text, ctx, shown, [...chips, ...media.blocks]);
  }
}

function send(text: string, ctx: AppContext, shown: string | undefined, attachments: readonly AttachmentBlock[]): void {
  if (shown !== undefined) ctx.store.dispatch({ type: 'pastedPrompt', text, display: shown });
  if (ctx.store.getSnapshot().busy) ctx.store.dispatch({ type: 'queue', text });
  toBottom(ctx);
  ctx.session.submit(text, attachments);
}

function toBottom(ctx: AppContext): void {
  ctx.store.dispatch({ type: 'scrollTo', to: 'bottom', total: ctx.view.total, height: ctx.view.height });
}
