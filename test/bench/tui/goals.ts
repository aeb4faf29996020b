// Issue 5's goals next to the measured figures, as a markdown table (BENCHMARKS.md takes it as is).

export interface GoalRow {
  goal: string;
  target: string;
  /** With the cell-diff frame writer (the default). */
  measured: string;
  /** With CAIRN_FRAME_WRITER=0 (Ink writing to the terminal itself); '' where it does not apply. */
  baseline: string;
  pass: boolean | undefined;
}

export function goalTable(rows: readonly GoalRow[]): string {
  const head = ['goal', 'target', 'frame writer', 'CAIRN_FRAME_WRITER=0', 'met'];
  const body = rows.map((r) => [r.goal, r.target, r.measured, r.baseline || '-', r.pass === undefined ? '' : r.pass ? 'yes' : '**no**']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

export const fmt = {
  ms: (v: number): string => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : 'n/a'),
  x: (v: number): string => `${v.toFixed(2)}x`,
  n: (v: number, digits = 2): string => v.toFixed(digits),
  mb: (v: number): string => `${v.toFixed(0)} MB`,
  pct: (v: number): string => `${v.toFixed(v < 1 ? 2 : 1)}%`,
};
