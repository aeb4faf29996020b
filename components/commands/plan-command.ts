import type { SlashCommand } from '../actions/app-context.js';
import { showPlan } from '../actions/plan.js';

/**
 * /plan shows the approved plan again; /plan <task> switches to plan mode and sends the task, as
 * Claude Code's /plan [description] does (the model explores read-only and presents a plan).
 */
export const planCommand: SlashCommand = {
  name: 'plan',
  description: 'Show the approved plan again; with a task: switch to plan mode and start on it',
  argHint: '[task]',
  run(args, ctx) {
    if (!args) return showPlan(ctx);
    ctx.session.setMode('plan');
    if (ctx.store.getSnapshot().busy) ctx.store.dispatch({ type: 'queue', text: args });
    ctx.session.submit(args);
  },
};
