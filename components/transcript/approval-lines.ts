import { approvalChoices } from '../store/approval-choices.js';
import type { ApprovalUi, PermissionRequest } from '../store/types.js';
import { bold, clipLine, inverse, paint, textWidth, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { diffLines } from './diff-lines.js';
import { approvalHeadline, subjectLines } from './call-view-lines.js';
import { questionLines, questionMinRows } from './question-lines.js';
import { questionUiOf } from '../store/question-picker.js';
import { ASK_USER_QUESTION, questionsOf, type Question } from '../../src/tools/ask-user-question-schema.js';

const PREVIEW_MAX = 24;

/** A question from the model (ask_user_question) is answered with the question picker, not yes or no. */
function questionsAsked(request: PermissionRequest): Question[] | undefined {
  return request.name === ASK_USER_QUESTION ? questionsOf(request.input) : undefined;
}

/**
 * Rows the approval needs at the least: its title, one row per choice and the key hint. The layout
 * gives it these before anything else (the transcript gives way first).
 */
export function approvalMinRows(request: PermissionRequest): number {
  const questions = questionsAsked(request);
  if (questions) return questionMinRows(questions);
  return approvalChoices(request).length + 2;
}

/** `text` cut to `width` columns with an ellipsis when it does not fit. */
function ellipsize(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  return width <= 1 ? clipLine(text, width) : `${clipLine(text, width - 1)}…`;
}

/**
 * The inline approval block drawn under the tool card that asks, at most `maxRows` rows: when it
 * does not fit, the command, preview and reason are cut first (v shows them whole), then each
 * choice keeps one row; the choices, the selection and the key hint always show.
 */
export function approvalLines(request: PermissionRequest, ui: ApprovalUi, width: number, theme: Theme, pendingAfter: number, maxRows = Infinity): string[] {
  const questions = questionsAsked(request);
  if (questions) return questionLines(request, questions, questionUiOf(ui, questions), width, theme, pendingAfter, maxRows);
  const bar = paint(theme, 'warning', '│ ');
  const inner = Math.max(1, width - 2);
  const agent = request.agent ? ` (agent: ${request.agent})` : '';
  const more = pendingAfter > 0 ? paint(theme, 'muted', ` · ${pendingAfter} more waiting`) : '';
  const title = `${paint(theme, 'warning', '╭ ')}${bold(approvalHeadline(request))}${paint(theme, 'muted', agent)}${more}`;
  const subject = subjectLines(request, inner, theme);
  const preview = request.preview ? diffLines(request.preview, inner, theme) : [];
  const reason = wrapText(request.reason, inner).map((l) => paint(theme, 'muted', l));
  const choices = approvalChoices(request);
  const keys = choices.map((c) => c.key).join('/');
  const hint = paint(theme, 'warning', '╰ ') + paint(theme, 'muted', ellipsize(`${keys} · ↑↓ Enter · v full view · Esc = no, stop · typing goes to your draft`, inner));
  const field = ui.denyText === '' ? paint(theme, 'muted', 'type what to do instead, Enter to send') : ui.denyText;

  // As much as there is room for: every row of every part.
  const full = (): string[] => {
    const rows: string[] = [...subject, ...cappedPreview(preview, theme), ...reason];
    choices.forEach((choice, i) => {
      const chosen = i === ui.choice;
      const lines = wrapText(`${chosen ? '›' : ' '} ${choice.label} (${choice.key})`, inner);
      rows.push(...lines.map((l) => (chosen ? inverse(l) : l)));
      if (choice.kind === 'no' && chosen) rows.push(...wrapText(`  ▸ ${field}█`, inner));
    });
    return [title, ...rows.map((l) => `${bar}${l}`), hint];
  };
  const lines = full();
  if (lines.length <= maxRows) return lines;

  // Too tall: a row per choice (the open field on its own row if there is room), the rest cut.
  const fieldOpen = choices[ui.choice]?.kind === 'no';
  const fixed = approvalMinRows(request);
  const fieldRow = fieldOpen && maxRows - fixed >= 1;
  const room = Math.max(0, maxRows - fixed - (fieldRow ? 1 : 0));
  const choiceRows = choices.flatMap((choice, i) => {
    const chosen = i === ui.choice;
    const mark = chosen ? '›' : ' ';
    if (choice.kind === 'no' && chosen && !fieldRow) return [inverse(`${mark} `) + fieldTail(ui.denyText, field, inner - 2)];
    const suffix = ` (${choice.key})`;
    const line = `${ellipsize(`${mark} ${choice.label}`, inner - textWidth(suffix))}${suffix}`;
    const rows = [chosen ? inverse(line) : line];
    if (choice.kind === 'no' && chosen) rows.push(`  ▸ ${fieldTail(ui.denyText, field, inner - 4)}`);
    return rows;
  });
  const body = fitBody(subject, preview, reason, room, theme);
  // Not even a row for what is asked: it goes on the title row.
  const head = body.length === 0 ? ellipsize(`${title} ${stripBold(subject[0] ?? '')}`, width) : title;
  return [head, ...[...body, ...choiceRows].map((l) => `${bar}${l}`), hint];
}

function cappedPreview(preview: string[], theme: Theme): string[] {
  if (preview.length <= PREVIEW_MAX) return preview;
  const kept = preview.slice(0, PREVIEW_MAX - 1);
  return [...kept, paint(theme, 'muted', `… ${preview.length - kept.length} more diff lines · v shows all`)];
}

/** The field's text, its end in view (the cursor is there), on one row. */
function fieldTail(text: string, placeholder: string, width: number): string {
  if (text === '') return `${ellipsize(placeholder, Math.max(1, width - 1))}█`;
  const chars = [...text];
  let start = 0;
  while (start < chars.length && textWidth(chars.slice(start).join('')) + 1 > width) start++;
  return `${chars.slice(start).join('')}█`;
}

/** Command first (up to 3 rows), then the reason if it fits whole, then as much preview as fits. */
function fitBody(subject: string[], preview: string[], reason: string[], rows: number, theme: Theme): string[] {
  const all = [...subject, ...preview, ...reason];
  if (all.length <= rows) return all;
  if (rows <= 1) return subject.slice(0, rows);
  let budget = rows - 1; // one row says what was left out
  const cmd = subject.slice(0, Math.min(subject.length, 3, budget));
  budget -= cmd.length;
  const why = reason.length <= budget ? reason : [];
  budget -= why.length;
  const diff = preview.slice(0, budget);
  const hidden = all.length - cmd.length - why.length - diff.length;
  return [...cmd, ...diff, paint(theme, 'muted', `… ${hidden} more line${hidden === 1 ? '' : 's'} · v shows all`), ...why];
}

function stripBold(text: string): string {
  return text.replace(/\x1b\[[\d;]*m/g, '');
}
