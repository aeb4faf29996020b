import type { Question } from '../../src/tools/ask-user-question-schema.js';
import { boundKeyLabel } from '../keys/key-help.js';
import { isAnswered, otherIndex, type QuestionUi } from '../store/question-picker.js';
import type { PermissionRequest } from '../store/types.js';
import { bold, clipLine, inverse, paint, textWidth, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

/** Rows a question picker needs at the least: the title, the tabs, a row of question, one per option and "Other", the hint. */
export function questionMinRows(questions: readonly Question[]): number {
  const most = Math.max(...questions.map((q) => q.options.length + 1));
  return most + (questions.length > 1 ? 4 : 3);
}

function fit(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  return width <= 1 ? clipLine(text, width) : `${clipLine(text, width - 1)}…`;
}

/**
 * A question from the model, drawn inline where an approval would be: the headers as tabs (✓ once
 * answered), the focused question, its options numbered (ticks in a multiple choice, the cursor
 * inverse), "Other" with its text field, and the keys. At most `maxRows` rows: the question's own
 * text gives way first, then the options' descriptions (each option keeps its row).
 */
export function questionLines(request: PermissionRequest, questions: readonly Question[], ui: QuestionUi, width: number, theme: Theme, pendingAfter: number, maxRows = Infinity): string[] {
  const bar = paint(theme, 'warning', '│ ');
  const inner = Math.max(1, width - 2);
  const agent = request.agent ? paint(theme, 'muted', ` (agent: ${request.agent})`) : '';
  const more = pendingAfter > 0 ? paint(theme, 'muted', ` · ${pendingAfter} more waiting`) : '';
  const title = `${paint(theme, 'warning', '╭ ')}${bold(questions.length > 1 ? 'cairn has questions' : 'cairn asks')}${agent}${more}`;
  const q = questions[ui.tab] ?? questions[0];
  if (!q) return [title];
  const tabs =
    questions.length > 1
      ? [
          fit(
            questions
              .map((each, i) => {
                const label = `${isAnswered(each, ui, i) ? '✓' : '·'} ${each.header}`;
                return i === ui.tab ? inverse(` ${label} `) : ` ${label} `;
              })
              .join(' '),
            inner,
          ),
        ]
      : [];
  const asked = wrapText(`${q.header}: ${q.question}${q.multiSelect ? ' (choose any)' : ''}`, inner).map((l) => bold(l));
  const cursor = ui.cursor[ui.tab] ?? 0;
  const picked = ui.picked[ui.tab] ?? [];
  const other = ui.other[ui.tab] ?? '';
  const rows = [...q.options.map((o) => ({ label: o.label, description: o.description })), { label: 'Other', description: '' }];
  const options = rows.map((row, i) => {
    const mark = q.multiSelect ? (picked.includes(i) ? '[x]' : '[ ]') : picked.includes(i) ? '(•)' : '( )';
    const isOther = i === otherIndex(q);
    const field = isOther && (ui.editing || other !== '') ? `: ${other}${ui.editing ? '█' : ''}` : isOther ? ': type your own answer' : '';
    const text = `${i === cursor ? '›' : ' '} ${i + 1}. ${mark} ${row.label}${field}`;
    const described = row.description ? `${text}${paint(theme, 'muted', ` — ${row.description}`)}` : text;
    const line = fit(described, inner);
    return i === cursor ? inverse(fit(text, inner)) + (textWidth(text) < inner && row.description ? paint(theme, 'muted', fit(` — ${row.description}`, inner - textWidth(text))) : '') : line;
  });
  const numbers = `${boundKeyLabel('pickOption')}-${rows.length}`;
  const keys = ui.editing
    ? 'type your answer · Enter takes it · Esc declines'
    : `${numbers} or ↑↓ Enter${q.multiSelect ? ' · Space ticks' : ''}${questions.length > 1 ? ' · Tab next question' : ''} · Esc declines · typing goes to your draft`;
  const hint = paint(theme, 'warning', '╰ ') + paint(theme, 'muted', fit(keys, inner));
  const room = maxRows - 2 - tabs.length - options.length;
  const question = room >= asked.length ? asked : asked.slice(0, Math.max(1, room)).map((l, i, all) => (i === all.length - 1 && all.length < asked.length ? fit(`${l}…`, inner) : l));
  return [title, ...[...tabs, ...question, ...options].map((l) => `${bar}${l}`), hint];
}
