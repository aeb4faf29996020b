import { structuredPatch } from 'diff';

/** A unified diff of one file, without the `===` banner and timestamp tabs createTwoFilesPatch adds. */
export function unifiedDiff(shownPath: string, before: string, after: string, context = 3): string {
  const patch = structuredPatch(shownPath, shownPath, before, after, undefined, undefined, { context });
  if (patch.hunks.length === 0) return '';
  const out = [`--- ${shownPath}`, `+++ ${shownPath}`];
  for (const h of patch.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    out.push(...h.lines);
  }
  return out.join('\n');
}

/** Shortens a diff for the model's copy of the result; the UI gets the full one via display. */
export function shortenDiff(diff: string, maxLines = 80): string {
  const lines = diff.split('\n');
  if (lines.length <= maxLines) return diff;
  return [...lines.slice(0, maxLines), `... (${lines.length - maxLines} more diff lines)`].join('\n');
}

export function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}
