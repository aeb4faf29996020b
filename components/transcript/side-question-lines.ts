import { boundKeyLabel } from '../keys/key-help.js';
import type { SideQuestionDialog } from '../store/types.js';
import { renderMarkdown } from '../markdown/render-markdown.js';
import { bold, paint, wrapPainted } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

/** /btw's box: the question, then the answer (or that it is coming, or why it failed); cut at the bottom when it is taller than the room. */
export function sideQuestionLines(dialog: SideQuestionDialog, width: number, theme: Theme, maxRows: number): string[] {
  const close = `${boundKeyLabel('back')} close`;
  const title = `${paint(theme, 'accent', '─')} ${bold('/btw')} ${paint(theme, 'muted', `(not kept in the conversation) · ${close}`)}`;
  const question = wrapPainted(theme, 'muted', `> ${dialog.question}`, width);
  const body =
    dialog.error !== undefined
      ? wrapPainted(theme, 'error', `No answer: ${dialog.error}`, width)
      : dialog.answer !== undefined
        ? renderMarkdown(dialog.answer, width, theme.color ? theme.name : 'none')
        : [paint(theme, 'muted', 'Answering…')];
  const room = Math.max(1, maxRows - 1 - question.length);
  const shown = body.length > room ? [...body.slice(0, room - 1), paint(theme, 'muted', `… ${body.length - room + 1} more line(s) cut: the box is as tall as the screen allows`)] : body;
  return [title, ...question, ...shown];
}
