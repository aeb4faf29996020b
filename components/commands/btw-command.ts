import { askSideQuestion } from '../actions/side-question.js';
import type { SlashCommand } from '../actions/app-context.js';

/** /btw QUESTION: asked with the conversation as context; neither question nor answer joins it. A running turn goes on alongside. */
export const btwCommand: SlashCommand = {
  name: 'btw',
  description: 'Ask a side question with the current context; neither it nor the answer is kept (runs alongside a turn)',
  argHint: '<question>',
  run(args, ctx) {
    if (!args.trim()) return ctx.print('Usage: /btw <question>: asked with the conversation so far, answered in a box Esc closes, and not kept.', 'warning');
    askSideQuestion(args.trim(), ctx);
  },
};
