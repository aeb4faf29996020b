import { cronStatusText } from '../store/background-state.js';
import type { CronItem } from '../store/background-state.js';
import { bold, clipLine, paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

const RESULT_LINES = 40;

/** A scheduled task's one-line card; a result (an auto run's report, a missed run) unfolds under it. */
export function cronLines(item: CronItem, width: number, theme: Theme, expanded: boolean): string[] {
  const token = item.status === 'missed' ? 'warning' : 'accent';
  const fold = item.result !== undefined && item.status !== 'deleted' ? (expanded ? '▾ ' : '▸ ') : '';
  const schedule = item.schedule === 'now' ? 'test' : item.schedule;
  const head =
    `${paint(theme, token, '⏰')} ${bold(`cron ${cronStatusText(item.status)}`)} ` +
    `${paint(theme, 'muted', `${item.taskId} · ${schedule}${item.status === 'deleted' && item.result ? ` · ${item.result}` : ''} · `)}` +
    `${fold}${item.prompt.replace(/\s+/g, ' ')}`;
  const lines = [clipLine(head, width)];
  if (!expanded || item.result === undefined || item.status === 'deleted') return lines;
  const inner = Math.max(1, width - 2);
  const body = wrapText(item.result.replace(/\n+$/, ''), inner);
  const shown = body.slice(0, RESULT_LINES);
  for (const l of shown) lines.push(`${paint(theme, 'border', '⎿ ')}${l}`);
  if (body.length > shown.length) lines.push(paint(theme, 'muted', `  … ${body.length - shown.length} more lines`));
  return lines;
}
