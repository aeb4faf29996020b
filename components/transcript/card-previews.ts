import { paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

// The parts of a card's text a person needs first: the end of a command's output, where a failed
// one failed, the beginning of anything else. Each says what it leaves out.

/** How to see what a card leaves out: select it, then Enter opens the full view. */
export const SEE_ALL = ' · Tab, Enter shows all';

const lines = (text: string, width: number): string[] => wrapText(text.replace(/\n+$/, ''), width);

/** The last `count` lines, after a line saying how many came before. */
export function tailLines(text: string, width: number, theme: Theme, count: number, token: 'muted' | 'error' = 'muted'): string[] {
  const all = lines(text, width);
  const shown = all.slice(-count);
  const hidden = all.length - shown.length;
  return [...(hidden > 0 ? [paint(theme, 'muted', `… ${hidden} earlier lines${SEE_ALL}`)] : []), ...shown.map((l) => paint(theme, token, l))];
}

/** The first `count` lines, then a line saying how many follow. */
export function headLines(text: string, width: number, theme: Theme, count: number, token: 'muted' | 'error'): string[] {
  const all = lines(text, width);
  const shown = all.slice(0, count).map((l) => paint(theme, token, l));
  return all.length > count ? [...shown, paint(theme, 'muted', `… ${all.length - count} more lines${SEE_ALL}`)] : shown;
}

// A line where a test run, a compiler or a program says it failed (`FAIL src/a.test.ts`, `error TS2304`,
// `Error: boom`, `Traceback`, `npm ERR!`, `✗`, `AssertionError`).
const FAILURE_LINE = /(^|\s)(FAIL|FAILED|ERROR|ERR!|Error|error|Traceback|panicked|AssertionError|✗|×|✘)(\b|:|\s|$)/;
// Where the failed command's own status line begins: cairn's notes are not where it failed.
const STATUS_LINE = /^(Exit code: \d+|Killed by signal |Command timed out after )/;

/**
 * A failed command's output, at the place it failed: from the first line that reports a failure
 * (with a line of context before it), `count` lines; with no such line, its last `count` lines.
 * The exit status line, which ends the result, always shows.
 */
export function failureLines(text: string, width: number, theme: Theme, count: number): string[] {
  const raw = text.replace(/\n+$/, '').split('\n');
  const statusAt = raw.findIndex((l) => STATUS_LINE.test(l));
  const output = statusAt >= 0 ? raw.slice(0, statusAt).join('\n').replace(/\n+$/, '') : raw.join('\n');
  const status = statusAt >= 0 ? raw.slice(statusAt).filter((l) => l !== '') : [];
  const room = Math.max(1, count - status.length);
  const wrapped = lines(output, width);
  const first = wrapped.findIndex((l) => FAILURE_LINE.test(l));
  const tail = status.flatMap((l) => wrapText(l, width)).map((l) => paint(theme, 'error', l));
  if (first < 0 || wrapped.length <= room) return [...tailLines(output, width, theme, room), ...tail];
  const from = Math.min(Math.max(0, first - 1), Math.max(0, wrapped.length - room));
  const shown = wrapped.slice(from, from + room).map((l) => paint(theme, FAILURE_LINE.test(l) ? 'error' : 'muted', l));
  const before = from > 0 ? [paint(theme, 'muted', `… ${from} earlier lines${SEE_ALL}`)] : [];
  const after = wrapped.length - from - shown.length;
  return [...before, ...shown, ...(after > 0 ? [paint(theme, 'muted', `… ${after} more lines`)] : []), ...tail];
}
