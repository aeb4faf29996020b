import { paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

/** Colours a unified diff line by line; long lines wrap with their colour. */
export function diffLines(diff: string, width: number, theme: Theme, maxLines = Infinity): string[] {
  const out: string[] = [];
  const raw = diff.replace(/\n$/, '').split('\n');
  for (const line of raw) {
    const token = line.startsWith('+++') || line.startsWith('---') ? 'muted' : line.startsWith('+') ? 'diffAdd' : line.startsWith('-') ? 'diffRemove' : line.startsWith('@@') ? 'diffHunk' : 'text';
    for (const piece of wrapText(line, width)) out.push(paint(theme, token, piece));
  }
  if (out.length <= maxLines) return out;
  const kept = out.slice(0, Math.max(1, maxLines - 1));
  return [...kept, paint(theme, 'muted', `… ${out.length - kept.length} more diff lines`)];
}
