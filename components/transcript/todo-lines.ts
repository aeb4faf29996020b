import type { TodoItem } from '../../src/events.js';
import { bold, clipLine, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

/** The checklist shows while something is left to do; a finished list gets out of the way. */
export function todosOpen(todos: readonly TodoItem[]): boolean {
  return todos.some((t) => t.status !== 'completed');
}

export function todoPanelHeight(todos: readonly TodoItem[], maxRows: number): number {
  if (!todosOpen(todos) || maxRows <= 0) return 0;
  return Math.min(maxRows, todos.length);
}

function strike(text: string): string {
  return text === '' ? text : `\x1b[9m${text}\x1b[29m`;
}

function todoLine(todo: TodoItem, width: number, theme: Theme): string {
  switch (todo.status) {
    case 'completed':
      return clipLine(paint(theme, 'muted', `✓ ${strike(todo.content)}`), width);
    case 'in_progress':
      return clipLine(`${paint(theme, 'running', '▸')} ${bold(todo.activeForm)}`, width);
    case 'pending':
      return clipLine(`${paint(theme, 'muted', '☐')} ${todo.content}`, width);
  }
}

/**
 * The pinned checklist, at most `maxRows` lines. A long list keeps the item in progress in view:
 * it starts just before the first unfinished item and says how many are not shown.
 */
export function todoLines(todos: readonly TodoItem[], width: number, theme: Theme, maxRows: number): string[] {
  const rows = todoPanelHeight(todos, maxRows);
  if (rows === 0) return [];
  if (todos.length <= rows) return todos.map((t) => todoLine(t, width, theme));
  const shown = rows - 1;
  const firstOpen = todos.findIndex((t) => t.status !== 'completed');
  const start = Math.max(0, Math.min(todos.length - shown, firstOpen - 1));
  const lines = todos.slice(start, start + shown).map((t) => todoLine(t, width, theme));
  const hidden = todos.length - shown;
  const done = todos.filter((t) => t.status === 'completed').length;
  lines.push(paint(theme, 'muted', clipLine(`  … ${hidden} more (${done}/${todos.length} done)`, width)));
  return lines;
}
