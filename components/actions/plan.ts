import { boundKeyLabel } from '../keys/key-help.js';
import { PLAN_NOTICE, planModeNote } from '../transcript/plan-lines.js';
import type { AppContext } from './app-context.js';

const NONE = 'No plan has been approved in this session. /plan <task> switches to plan mode and starts on the task; the model can also ask to plan first.';

/** /plan: the approved plan again, in the transcript (its text as Markdown), or a line saying there is none. */
export function showPlan(ctx: Pick<AppContext, 'store'>): void {
  const { plan } = ctx.store.getSnapshot();
  if (!plan) return ctx.store.dispatch({ type: 'notice', level: 'info', message: NONE });
  const mode = plan.mode !== undefined ? ` (${planModeNote(plan.mode)})` : '';
  ctx.store.dispatch({ type: 'notice', level: 'info', message: `Approved plan${mode}:\n${plan.text}`, code: PLAN_NOTICE });
}

/** The pinned plan block's key: fold it to its title line or unfold it. */
export function togglePlan(ctx: Pick<AppContext, 'store'>): void {
  if (ctx.store.getSnapshot().plan) return ctx.store.dispatch({ type: 'togglePlan' });
  ctx.store.dispatch({ type: 'notice', level: 'info', message: `${boundKeyLabel('togglePlan')} folds and unfolds the approved plan; ${NONE.charAt(0).toLowerCase()}${NONE.slice(1)}` });
}
