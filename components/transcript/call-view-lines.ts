import { genericCallView, titleLine, type CallView } from '../../src/tools/call-view.js';
import { bold, paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

/**
 * A call's view: the one the engine sent (the tool's describe), or for a call recorded before views
 * existed or raised by the UI itself, the generic one.
 */
export function callView(call: { readonly view?: CallView | undefined; readonly input: unknown }): CallView {
  return call.view ?? genericCallView(call.input);
}

const PLAN_MAX = 30;

/** The plan as the user reads it before approving: its lines wrapped, the middle elided when long. */
function planLines(plan: string, width: number, whole: boolean): string[] {
  const lines = plan.split('\n').flatMap((l) => wrapText(l, width));
  if (whole || lines.length <= PLAN_MAX) return lines;
  const head = lines.slice(0, PLAN_MAX - 6);
  return [...head, `… ${lines.length - PLAN_MAX + 1} more lines …`, ...lines.slice(-5)];
}

/**
 * What a call is about, in the approval's and the full view's words: the command as it will run,
 * the path, the plan, the question, or the raw input. `whole`: nothing elided (the full view).
 */
export function subjectLines(call: { readonly view?: CallView | undefined; readonly input: unknown }, width: number, theme: Theme, whole = false): string[] {
  const subject = callView(call).subject;
  switch (subject.kind) {
    case 'command':
      return wrapText(`$ ${subject.command}`, width).map((l) => bold(l));
    case 'path':
      return wrapText(subject.path, width).map((l) => bold(l));
    case 'plan':
      return planLines(subject.plan, width, whole);
    case 'question':
      return wrapText(subject.question, width).map((l) => bold(l));
    case 'input': {
      const json = JSON.stringify(call.input, null, whole ? 2 : undefined) ?? '';
      const lines = json.split('\n').flatMap((l) => wrapText(l, width));
      return (whole ? lines : lines.slice(0, 6)).map((l) => (whole ? paint(theme, 'muted', l) : l));
    }
  }
}

/** The approval's headline: the tool, and what the call is for when its title says more than its subject. */
export function approvalHeadline(request: { readonly name: string; readonly view?: CallView | undefined; readonly input: unknown }): string {
  if (request.name === 'exit_plan_mode') return 'Approve this plan?';
  const about = commandDescription(callView(request));
  return about ? `Allow ${request.name}: ${about}?` : `Allow ${request.name}?`;
}

/** The title of a command call when it is the description the model wrote, not the command's own first line. */
export function commandDescription(view: CallView): string | undefined {
  return view.subject.kind === 'command' && view.title !== titleLine(view.subject.command) ? view.title : undefined;
}
