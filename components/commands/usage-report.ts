import { costSummary, formatCost } from '../../src/pricing.js';
import { formatContext, formatTokens } from '../transcript/format-tokens.js';
import type { TuiState } from '../store/types.js';

const TURNS_SHOWN = 10;

/** The /usage text: session totals with cache reads/writes and estimated cost, then the recent turns' deltas. */
export function usageReport(state: Pick<TuiState, 'usage' | 'contextLimit' | 'pricing'>): string {
  const u = state.usage;
  const pct = Math.round((u.context / state.contextLimit) * 100);
  const prompted = u.input + u.cacheRead + u.cacheWrite;
  const hit = prompted > 0 ? Math.round((u.cacheRead / prompted) * 100) : 0;
  const lines = [
    `Session: ${formatTokens(u.input)} input, ${formatTokens(u.output)} output tokens.`,
    `Cache: ${formatTokens(u.cacheRead)} read, ${formatTokens(u.cacheWrite)} written (${hit}% of prompt tokens from cache) · ${u.calls} model call${u.calls === 1 ? '' : 's'}.`,
    `Context: ${formatTokens(u.context)} of ${formatContext(state.contextLimit)} (${pct}%).`,
    ...costLines(state),
  ];
  lines.push(...classifierLines(state));
  if (u.estimatedCalls > 0) {
    lines.push(`${u.estimatedCalls} call${u.estimatedCalls === 1 ? ' was' : 's were'} cut off before the provider reported usage: what arrived is counted, partly estimated.`);
  }
  const turns = u.turns.slice(-TURNS_SHOWN);
  if (turns.length === 0) return lines.join('\n');
  const cols = ['calls', 'input', 'output', 'cache read', 'cache write'];
  const rows = turns.map((t) => ({ label: t.label, cells: [String(t.calls), `+${formatTokens(t.input)}`, `+${formatTokens(t.output)}`, formatTokens(t.cacheRead), formatTokens(t.cacheWrite)] }));
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((r) => r.cells[i]?.length ?? 0)));
  const row = (cells: string[], label: string): string => `  ${cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ')}  ${label}`;
  const skipped = u.turns.length - turns.length;
  return [
    ...lines,
    '',
    `Per turn${skipped > 0 ? ` (last ${turns.length})` : ''}:`,
    row(cols, 'prompt'),
    ...rows.map((r) => row(r.cells, r.label)),
  ].join('\n');
}

/** The estimate per model, with the date of the prices and where to change them. */
function costLines(state: Pick<TuiState, 'usage' | 'pricing'>): string[] {
  const summary = costSummary(state.usage.byModel, state.pricing);
  if (summary.perModel.length === 0) return [];
  const source = `prices checked ${state.pricing.checked}${state.pricing.fromConfig.length > 0 ? `, ${state.pricing.fromConfig.join(', ')} from config.json` : ''}`;
  const lines = [`Estimated cost: ${formatCost(summary.total)}${summary.unpriced.length > 0 ? ' (some models have no price)' : ''} (${source}).`];
  for (const m of summary.perModel) {
    const tokens = `${formatTokens(m.tokens.input)} in, ${formatTokens(m.tokens.output)} out, ${formatTokens(m.tokens.cacheRead)} cache read, ${formatTokens(m.tokens.cacheWrite)} cache write`;
    lines.push(`  ${m.model}: ${tokens}: ${m.cost !== undefined ? formatCost(m.cost) : 'no price (set pricing in config.json)'}`);
  }
  return lines;
}

/** Auto mode's classifier calls: how many, their tokens and estimated cost (already in the totals above). */
function classifierLines(state: Pick<TuiState, 'usage' | 'pricing'>): string[] {
  const c = state.usage.classifier;
  if (c.calls === 0) return [];
  const summary = costSummary(c.byModel, state.pricing);
  const tokens = Object.values(c.byModel).reduce((t, m) => ({ input: t.input + m.input + m.cacheRead + m.cacheWrite, output: t.output + m.output }), { input: 0, output: 0 });
  const cost = summary.perModel.length > 0 && summary.unpriced.length === 0 ? `, ${formatCost(summary.total)}` : '';
  return [`Auto mode classifier: ${c.calls} call${c.calls === 1 ? '' : 's'}, ${formatTokens(tokens.input)} input, ${formatTokens(tokens.output)} output tokens${cost} (included above).`];
}
