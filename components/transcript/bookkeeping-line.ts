import type { ToolItem, TranscriptItem } from '../store/types.js';
import { clipLine, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { statusGlyph } from './tool-status.js';
import { cardTitle, toolCard } from './tool-cards.js';

// Bookkeeping calls (the checklist, shared tasks, skills, schedules) that worked say little each:
// a run of them in a row reads as one line, `✓ todo_write 2 of 5 done · task_update #3 completed`,
// instead of a card apiece. One that failed, is selected or was opened by the user is a card again.

/** Whether this item folds into a bookkeeping line. */
export function foldsIntoLine(item: TranscriptItem, selectedId: string | undefined): boolean {
  return item.kind === 'tool' && item.status === 'success' && toolCard(item.name).bookkeeping === true && item.userExpanded === undefined && item.id !== selectedId && item.hookNotes === undefined;
}

/** The run's one line: each tool once, with its latest title and how many calls it made. */
export function bookkeepingLine(run: readonly ToolItem[], width: number, theme: Theme): string {
  const byName = new Map<string, { title: string; count: number }>();
  for (const item of run) byName.set(item.name, { title: cardTitle(item), count: (byName.get(item.name)?.count ?? 0) + 1 });
  const parts = [...byName].map(([name, { title, count }]) => `${name}${count > 1 ? ` ×${count}` : ''} ${title}`);
  return clipLine(`${paint(theme, 'success', statusGlyph('success', 0))} ${paint(theme, 'muted', parts.join(' · '))}`, width);
}
