import { approvalChoices } from '../store/approval-choices.js';
import type { ApprovalUi, PermissionRequest } from '../store/types.js';
import { bold, inverse, paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { diffLines } from './diff-lines.js';
import { inputRecord } from './tool-renderers.js';

const PREVIEW_MAX = 24;

const PLAN_MAX = 30;

/** The plan as the user reads it before approving: its lines wrapped, the middle elided when long. */
function planLines(plan: string, width: number): string[] {
  const lines = plan.split('\n').flatMap((l) => wrapText(l, width));
  if (lines.length <= PLAN_MAX) return lines;
  const head = lines.slice(0, PLAN_MAX - 6);
  return [...head, `… ${lines.length - PLAN_MAX + 1} more lines …`, ...lines.slice(-5)];
}

/** The inline approval block drawn under the tool card that asks. */
export function approvalLines(request: PermissionRequest, ui: ApprovalUi, width: number, theme: Theme, pendingAfter: number): string[] {
  const bar = paint(theme, 'warning', '│ ');
  const inner = Math.max(1, width - 2);
  const out: string[] = [];
  const add = (lines: string[]): void => {
    for (const l of lines) out.push(`${bar}${l}`);
  };
  const agent = request.agent ? ` (agent: ${request.agent})` : '';
  const more = pendingAfter > 0 ? paint(theme, 'muted', ` · ${pendingAfter} more waiting`) : '';
  out.push(`${paint(theme, 'warning', '╭ ')}${bold(`Allow ${request.name}?`)}${paint(theme, 'muted', agent)}${more}`);
  const input = inputRecord(request.input);
  const command = typeof input['command'] === 'string' ? input['command'] : undefined;
  const path = typeof input['path'] === 'string' ? input['path'] : undefined;
  const plan = typeof input['plan'] === 'string' ? input['plan'] : undefined;
  if (command !== undefined) add(wrapText(`$ ${command}`, inner).map((l) => bold(l)));
  else if (path !== undefined) add(wrapText(path, inner).map((l) => bold(l)));
  else if (plan !== undefined) add(planLines(plan, inner));
  else add(wrapText(JSON.stringify(request.input), inner).slice(0, 6));
  if (request.preview) add(diffLines(request.preview, inner, theme, PREVIEW_MAX));
  add(wrapText(request.reason, inner).map((l) => paint(theme, 'muted', l)));
  const choices = approvalChoices(request);
  choices.forEach((choice, i) => {
    const chosen = i === ui.choice;
    const text = `${chosen ? '›' : ' '} ${choice.label} (${choice.key})`;
    const lines = wrapText(text, inner);
    add(lines.map((l) => (chosen ? inverse(l) : l)));
    if (choice.kind === 'no' && chosen) {
      const field = ui.denyText === '' ? paint(theme, 'muted', 'type what to do instead, Enter to send') : ui.denyText;
      add(wrapText(`  ▸ ${field}█`, inner));
    }
  });
  const keys = choices.map((c) => c.key).join('/');
  out.push(paint(theme, 'warning', '╰ ') + paint(theme, 'muted', `${keys} · ↑↓ Enter · Esc = No · typing goes to your draft`));
  return out;
}
