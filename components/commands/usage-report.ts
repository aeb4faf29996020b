import { formatTokens } from '../app/format-tokens.js';
import type { TuiState } from '../store/types.js';

const TURNS_SHOWN = 10;

/** The /usage text: session totals with cache reads/writes, then the recent turns' deltas. */
export function usageReport(state: Pick<TuiState, 'usage' | 'contextLimit'>): string {
  const u = state.usage;
  const pct = Math.round((u.context / state.contextLimit) * 100);
  const prompted = u.input + u.cacheRead + u.cacheWrite;
  const hit = prompted > 0 ? Math.round((u.cacheRead / prompted) * 100) : 0;
  const lines = [
    `Session: ${formatTokens(u.input)} input, ${formatTokens(u.output)} output tokens.`,
    `Cache: ${formatTokens(u.cacheRead)} read, ${formatTokens(u.cacheWrite)} written (${hit}% of prompt tokens from cache) · ${u.calls} model call${u.calls === 1 ? '' : 's'}.`,
    `Context: ${formatTokens(u.context)} of ${formatTokens(state.contextLimit)} (${pct}%).`,
  ];
  const turns = u.turns.slice(-TURNS_SHOWN);
  if (turns.length === 0) return lines.join('\n');
  const cols = ['calls', 'input', 'output', 'cache read', 'cache write'];
  const rows = turns.map((t) => [String(t.calls), `+${formatTokens(t.input)}`, `+${formatTokens(t.output)}`, formatTokens(t.cacheRead), formatTokens(t.cacheWrite)]);
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
  const row = (cells: string[], label: string): string => `  ${cells.map((c, i) => c.padStart(widths[i]!)).join('  ')}  ${label}`;
  const skipped = u.turns.length - turns.length;
  return [
    ...lines,
    '',
    `Per turn${skipped > 0 ? ` (last ${turns.length})` : ''}:`,
    row(cols, 'prompt'),
    ...turns.map((t, i) => row(rows[i]!, t.label)),
  ].join('\n');
}
