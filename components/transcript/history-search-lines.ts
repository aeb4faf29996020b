import type { HistorySearch } from '../prompt/history-search.js';
import { historyMatches } from '../prompt/history-search.js';
import { bold, clipLine, inverse, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

/** The search line, then the matching prompts (first line each), the chosen one inverse. */
export function historySearchLines(search: HistorySearch, width: number, theme: Theme, maxRows: number): string[] {
  const title = `${bold('Search earlier prompts')}${paint(theme, 'muted', '  type to narrow · Ctrl+R/↑ older · ↓ newer · Enter take · Esc cancel')}`;
  const query = `${paint(theme, 'muted', 'search: ')}${search.query}▏`;
  const matches = historyMatches(search);
  if (matches.length === 0) return [title, query, paint(theme, 'muted', search.history.length ? `  No earlier prompt holds "${search.query}".` : '  No earlier prompts yet.')];
  const room = Math.max(1, maxRows - 3);
  const index = Math.min(search.index, matches.length - 1);
  const first = Math.max(0, Math.min(index - room + 1, matches.length - room));
  const rows = matches.slice(first, first + room).map((prompt, i) => {
    const selected = first + i === index;
    const lines = prompt.split('\n');
    const more = lines.length > 1 ? paint(theme, 'muted', ` (+${lines.length - 1} lines)`) : '';
    const line = clipLine(`${selected ? '›' : ' '} ${lines[0] ?? ''}${more}`, width);
    return selected ? inverse(line) : line;
  });
  const hidden = matches.length - first - rows.length;
  return [title, query, ...rows, ...(hidden > 0 ? [paint(theme, 'muted', `  … ${hidden} more`)] : [])];
}
