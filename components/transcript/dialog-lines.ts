import type { ResumeDialog } from '../store/session-picker.js';
import { formatAge, pickerMatches, pickerSelection } from '../store/session-picker.js';
import type { Dialog } from '../store/types.js';
import { copyCodeLines } from './copy-code-lines.js';
import { historySearchLines } from './history-search-lines.js';
import { mentionLines } from './mention-lines.js';
import { rewindLines } from './rewind-lines.js';
import { pluginLines } from './plugin-lines.js';
import { modelPickerLines } from './model-picker-lines.js';
import { sideQuestionLines } from './side-question-lines.js';
import { boundKeyLabel } from '../keys/key-help.js';
import { bold, clipLine, inverse, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

/** The # note's question, with the keys in force (`u`, `p` by default). */
export function memoryQuestion(): string {
  return `Save to user (${boundKeyLabel('memoryUser')}) or project (${boundKeyLabel('memoryProject')}) memory?`;
}

/** The dialog's rows, each clipped to the width; never more than maxRows. */
export function dialogLines(dialog: Dialog, width: number, theme: Theme, maxRows: number): string[] {
  const lines =
    dialog.kind === 'memory'
      ? memoryLines(dialog.text, theme)
      : dialog.kind === 'copyCode'
        ? copyCodeLines(dialog, width, theme, maxRows)
        : dialog.kind === 'historySearch'
          ? historySearchLines(dialog, width, theme, maxRows)
          : dialog.kind === 'mention'
            ? mentionLines(dialog, width, theme, maxRows)
            : dialog.kind === 'rewind'
              ? rewindLines(dialog, width, theme, maxRows)
              : dialog.kind === 'plugins'
                ? pluginLines(dialog, width, theme, maxRows)
                : dialog.kind === 'btw'
                  ? sideQuestionLines(dialog, width, theme, maxRows)
                  : dialog.kind === 'model'
                    ? modelPickerLines(dialog, width, theme, maxRows)
                    : pickerLines(dialog, width, theme, maxRows);
  return lines.slice(0, Math.max(0, maxRows)).map((l) => clipLine(l, width));
}

export function dialogHeight(dialog: Dialog | undefined, width: number, theme: Theme, maxRows: number): number {
  return dialog ? dialogLines(dialog, width, theme, maxRows).length : 0;
}

function memoryLines(text: string, theme: Theme): string[] {
  const note = text.split('\n')[0] ?? '';
  return [
    paint(theme, 'accent', `# ${note}`),
    `${bold(memoryQuestion())}${paint(theme, 'muted', ' Esc cancels · user: every project · project: .cairn/MEMORY.md')}`,
  ];
}

function pickerLines(dialog: ResumeDialog, width: number, theme: Theme, maxRows: number): string[] {
  const title = `${bold('Resume a session')}${paint(theme, 'muted', '  type to filter · ↑↓ select · Enter resume · Esc close')}`;
  const filter = `${paint(theme, 'muted', 'filter: ')}${dialog.filter}▏`;
  const matches = pickerMatches(dialog);
  if (dialog.sessions.length === 0) return [title, paint(theme, 'muted', '  No earlier sessions in this workspace.')];
  if (matches.length === 0) return [title, filter, paint(theme, 'muted', `  No session matches "${dialog.filter}".`)];
  const room = Math.max(1, maxRows - 3);
  const { index } = pickerSelection(dialog);
  const start = Math.max(0, Math.min(index - room + 1, matches.length - room));
  const first = Math.max(0, Math.min(start, index));
  const shown = matches.slice(first, first + room);
  const rows = shown.map((s, i) => {
    const selected = first + i === index;
    const age = formatAge(s.modified, dialog.now).padStart(9);
    const count = `${s.messageCount} msg${s.messageCount === 1 ? '' : 's'}`.padStart(9);
    const prompt = (s.firstPrompt.split('\n')[0] ?? '').trim() || '(no prompt)';
    const mark = s.id === dialog.currentId ? ' (this session)' : '';
    const name = s.name !== undefined ? `[${s.name}] ` : '';
    const line = clipLine(`${selected ? '›' : ' '} ${age} ${count}  ${name}${prompt}${mark}`, width);
    return selected ? inverse(line) : line;
  });
  const hidden = matches.length - shown.length;
  return [title, filter, ...rows, ...(hidden > 0 ? [paint(theme, 'muted', `  … ${hidden} more`)] : [])];
}
