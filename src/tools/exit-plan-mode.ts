import * as z from 'zod';
import type { PermissionChecker } from '../permissions/types.js';
import { defineTool } from './tool.js';
import { titleLine } from './call-view.js';

const inputSchema = z.object({
  plan: z.string().min(1).describe('The plan to show the user, in Markdown: what you will change, file by file, and how you will check it'),
});

/** A plan's name: its first line, heading marks gone (the approval card's title, the pinned block's). */
export function planTitle(plan: string): string {
  return titleLine(plan.replace(/^#+\s*/gm, '')) || 'the plan';
}

/**
 * Plan mode's way out, as in Claude Code: the model presents its plan and the user approves it (and
 * picks the mode to carry on in) or sends it back with feedback. The approval card is the prompt;
 * the permission chain always asks for this tool in plan mode unless a rule allows it.
 */
export function createExitPlanModeTool(permissions: Pick<PermissionChecker, 'mode' | 'setMode'>) {
  return defineTool({
    name: 'exit_plan_mode',
    description:
      'In plan mode, when you have explored enough and have a concrete plan, call this with the plan. ' +
      'The user sees the plan on an approval card and approves it (nothing changes until then; they may pick the mode to carry on in) ' +
      'or sends it back with what to change, which you get as the result. Offered only in plan mode; not for research-only tasks.',
    inputSchema,
    describe: (input) => ({ title: planTitle(input.plan), subject: { kind: 'plan', plan: input.plan } }),
    kind: 'other',
    asksUser: true,
    effects: () => 'session',
    unavailable: () => (permissions.mode === 'plan' ? undefined : 'the session is not in plan mode'),
    async call(input, ctx) {
      // The user's answer may already have chosen the mode (acceptEdits); otherwise edits ask one by one.
      if (permissions.mode === 'plan') {
        permissions.setMode('default');
        ctx.emit?.({ type: 'mode_change', mode: 'default' });
      }
      // Kept: the screen pins it, the session file records it, /plan shows it again.
      ctx.emit?.({ type: 'plan_approved', plan: input.plan, mode: permissions.mode });
      return { content: `The user approved the plan. Permission mode is now ${permissions.mode}: start carrying out the plan.` };
    },
  });
}
