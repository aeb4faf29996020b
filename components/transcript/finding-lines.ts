import type { Finding, Severity } from '../../src/tools/report-findings-display.js';
import type { ToolItem, TranscriptItem } from '../store/types.js';
import { bold, clipLine, inverse, paint, wrapText } from '../theme/ansi.js';
import type { ColorToken, Theme } from '../theme/theme.js';

// A review's findings (report_findings) are cards of their own under the tool's card: selectable,
// Enter opens the place, a key asks cairn to fix one. Their ids are the tool card's plus an index.

const FINDING_SEP = '#finding-';

/** One finding as selection mode sees it. */
export interface FindingCard {
  readonly kind: 'finding';
  readonly id: string;
  readonly finding: Finding;
}

const SEVERITY_COLOR: Record<Severity, ColorToken> = { critical: 'error', high: 'error', medium: 'warning', low: 'muted' };

/** The findings a finished report_findings card holds, as cards; none for any other card. */
export function findingCards(item: ToolItem): FindingCard[] {
  if (item.display?.kind !== 'report_findings' || item.status !== 'success') return [];
  return item.display.findings.map((finding, i) => ({ kind: 'finding', id: `${item.id}${FINDING_SEP}${i}`, finding }));
}

/** The finding card with this id, wherever its report sits in the transcript. */
export function findFindingCard(items: readonly TranscriptItem[], id: string): FindingCard | undefined {
  const at = id.lastIndexOf(FINDING_SEP);
  if (at < 0) return undefined;
  const tool = items.find((i): i is ToolItem => i.kind === 'tool' && i.id === id.slice(0, at));
  return tool ? findingCards(tool).find((c) => c.id === id) : undefined;
}

/** `src/db.ts:12`. */
export const findingPlace = (f: Finding): string => `${f.file}:${f.line}`;

/** Two to four lines under the report's card: severity, place and title; why; the fix. Selected, the place is inverted. */
export function findingLines(card: FindingCard, width: number, theme: Theme, selected: boolean): string[] {
  const f = card.finding;
  const inner = Math.max(1, width - 4);
  const place = selected ? inverse(` ${findingPlace(f)} `) : bold(findingPlace(f));
  const head = clipLine(`  ${paint(theme, SEVERITY_COLOR[f.severity], `● ${f.severity}`)} ${place} ${f.title}`, width);
  const why = wrapText(f.why, inner).slice(0, 2).map((l) => `    ${paint(theme, 'muted', l)}`);
  const fix = f.fix ? [clipLine(`    ${paint(theme, 'success', 'fix:')} ${f.fix.split('\n')[0] ?? ''}`, width)] : [];
  return [head, ...why, ...fix];
}

/** The full view of a finding: what, why, the fix, then the lines around the place with its line marked. */
export function findingViewerLines(f: Finding, width: number, theme: Theme): string[] {
  const text = (s: string): string[] => wrapText(s.replace(/\n+$/, ''), width);
  const lines = [
    `${paint(theme, SEVERITY_COLOR[f.severity], f.severity)} · ${bold(findingPlace(f))}`,
    ...text(f.title).map((l) => bold(l)),
    '',
    ...text(f.why),
    '',
    paint(theme, 'success', 'Suggested fix:'),
    ...text(f.fix),
  ];
  if (f.excerpt) {
    const last = f.excerpt.start + f.excerpt.lines.length - 1;
    const digits = String(last).length;
    lines.push('', paint(theme, 'muted', `── ${f.file} lines ${f.excerpt.start}-${last}`));
    f.excerpt.lines.forEach((l, i) => {
      const n = f.excerpt ? f.excerpt.start + i : 0;
      const mark = n === f.line ? '▶' : ' ';
      const row = clipLine(`${mark} ${String(n).padStart(digits)} │ ${l}`, width);
      lines.push(n === f.line ? paint(theme, 'warning', row) : row);
    });
  } else {
    lines.push('', paint(theme, 'muted', `(cairn could not show ${f.file}: outside the workspace, unreadable or gone)`));
  }
  return lines;
}

/** What "fix" sends: the place, the finding and its suggested fix, as the user's next prompt. */
export function fixPrompt(f: Finding): string {
  return `Fix the ${f.severity} review finding at ${findingPlace(f)}: ${f.title}\n\nWhy: ${f.why}\n\nSuggested fix: ${f.fix}`;
}
