import type { MentionDialog } from '../prompt/mention-complete.js';
import { bold, clipLine, inverse, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

export function mentionLines(dialog: MentionDialog, width: number, theme: Theme, maxRows: number): string[] {
  const title = `${bold('@ file')}${paint(theme, 'muted', '  type to narrow · ↑↓ select · Tab/Enter insert · Esc keep typed')}`;
  const query = `${paint(theme, 'muted', '@')}${dialog.query}▏`;
  if (dialog.loading) return [title, query, paint(theme, 'muted', '  listing the workspace…')];
  if (dialog.matches.length === 0) return [title, query, paint(theme, 'muted', `  No file matches "${dialog.query}".`)];
  const room = Math.max(1, maxRows - 2);
  const first = Math.max(0, Math.min(dialog.index - room + 1, dialog.matches.length - room));
  const rows = dialog.matches.slice(first, first + room).map((p, i) => {
    const line = clipLine(`${first + i === dialog.index ? '›' : ' '} ${p}`, width);
    return first + i === dialog.index ? inverse(line) : line;
  });
  return [title, query, ...rows];
}
