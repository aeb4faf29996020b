import { expandMentions, findMentions, withChips } from '../../src/mentions/expand-mentions.js';
import { errorMessage } from '../../src/util/error-message.js';
import { runSlash } from '../commands/registry.js';
import { shellCommandOf } from '../prompt/shell-prompt.js';
import type { AppContext } from './app-context.js';
import { askToSaveMemory } from './memory-note.js';

/**
 * Sends what the prompt holds: `/...` runs a command, `# note` asks where to save it, `!cmd` runs in
 * the shell, anything else goes to the model (queued while a turn runs). `shown`: the prompt as
 * the box showed it, large pastes as placeholders (the transcript folds them).
 */
export function submit(text: string, ctx: AppContext, shown?: string): void {
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
  if (findMentions(text).length > 0) return void sendWithMentions(text, ctx, shown);
  send(text, ctx, shown);
}

/** `@path` mentions: their files attached to what is sent, shown as chips in the transcript. */
async function sendWithMentions(text: string, ctx: AppContext, shown: string | undefined): Promise<void> {
  try {
    const denied = await ctx.session.permissions.readDeniedMatcher();
    const { text: expanded, attachments } = await expandMentions(text, ctx.store.getSnapshot().info.cwd, denied);
    send(expanded, ctx, attachments.length ? withChips(shown ?? text, attachments) : shown);
  } catch (error) {
    // Nothing is attached that the rules were not checked for: the prompt goes as typed.
    ctx.store.dispatch({ type: 'notice', level: 'warning', message: `Mentioned files not attached: ${errorMessage(error)}` });
    send(text, ctx, shown);
  }
}

function send(text: string, ctx: AppContext, shown?: string): void {
  if (shown !== undefined) ctx.store.dispatch({ type: 'pastedPrompt', text, display: shown });
  if (ctx.store.getSnapshot().busy) ctx.store.dispatch({ type: 'queue', text });
  toBottom(ctx);
  ctx.session.submit(text);
}

function toBottom(ctx: AppContext): void {
  ctx.store.dispatch({ type: 'scrollTo', to: 'bottom', total: ctx.view.total, height: ctx.view.height });
}
