import * as z from 'zod';
import type { PermissionChecker } from '../permissions/types.js';
import { defineTool } from './tool.js';

export const ENTER_PLAN_MODE = 'enter_plan_mode';

/**
 * Plan mode's way in, as Claude Code's EnterPlanMode: the model asks to plan first when a task needs
 * it, and the user approves (the permission chain asks for it outside plan mode unless a rule allows
 * it). From then on nothing changes until a plan is approved with exit_plan_mode.
 */
export function createEnterPlanModeTool(permissions: Pick<PermissionChecker, 'mode' | 'setMode'>) {
  return defineTool({
    name: ENTER_PLAN_MODE,
    description:
      'Asks the user to switch to plan mode before a task that needs a plan first (several files, an unclear approach, a risky change). ' +
      'If they approve, explore read-only, then present the plan with exit_plan_mode; nothing changes until they approve it. ' +
      'Not for small, clear tasks. Offered only outside plan mode.',
    inputSchema: z.object({}),
    describe: () => ({ title: 'plan first', subject: { kind: 'question', question: 'Switch to plan mode: explore and present a plan before changing anything?' } }),
    kind: 'other',
    asksUser: true,
    effects: () => 'session',
    unavailable: () => (permissions.mode === 'plan' ? 'the session is in plan mode already' : undefined),
    async call(_input, ctx) {
      permissions.setMode('plan');
      ctx.emit?.({ type: 'mode_change', mode: 'plan' });
      return { content: 'The user approved plan mode. Explore read-only now, then present your plan with exit_plan_mode; nothing that changes anything runs until they approve it.' };
    },
  });
}
