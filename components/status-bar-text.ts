// The status bar's text, without React or Ink: the screen painter and the early first frame
// draw it, and the StatusBar component shows it where there is no frame writer.
import { costSummary, formatCost } from '../src/pricing.js';
import { mcpSummary } from '../src/mcp/mcp-summary.js';
import { itemAt } from '../src/util/invariant.js';
import { ASK_USER_QUESTION } from '../src/tools/ask-user-question-schema.js';
import { EXIT_CONFIRM_MS } from './keys/exit-confirm.js';
import { modeLabel } from './mode-label.js';
import type { TuiState } from './store/types.js';
import { clipLine, paint, textWidth } from './theme/ansi.js';
import type { Theme } from './theme/theme.js';
import { formatContext, formatTokens } from './transcript/format-tokens.js';

export interface StatusView {
  mode: TuiState['info']['mode'];
  /** The spending cap, if one is in force. */
  maxBudgetUsd?: number;
  busy: boolean;
  phase: TuiState['phase'];
  /** What the first waiting ask needs: an approval, or the answer to the model's question. */
  waiting: 'approval' | 'answer' | undefined;
  runningTools: number;
  usage: TuiState['usage'];
  pricing: TuiState['pricing'];
  limit: number;
  exitArmedAt: number | undefined;
  background: TuiState['background'];
  mcp: string;
}

export const selectStatus = (s: TuiState): StatusView => ({
  mode: s.info.mode,
  ...(s.info.maxBudgetUsd !== undefined ? { maxBudgetUsd: s.info.maxBudgetUsd } : {}),
  busy: s.busy,
  phase: s.phase,
  waiting: s.approvals[0] === undefined ? undefined : s.approvals[0].name === ASK_USER_QUESTION ? 'answer' : 'approval',
  runningTools: countRunningTools(s.items),
  usage: s.usage,
  pricing: s.pricing,
  limit: s.contextLimit,
  exitArmedAt: s.exitArmedAt,
  background: s.background,
  mcp: mcpSummary(s.mcpServers ?? []),
});

// Tools of the current turn sit after its prompt: scan back to it, not the whole history.
function countRunningTools(items: TuiState['items']): number {
  let n = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = itemAt(items, i, 'transcript item');
    if (item.kind === 'user') break;
    if (item.kind === 'tool' && item.status === 'running') n++;
  }
  return n;
}

/** "⏰ 2 · ⚙ 1": scheduled tasks and running background shells; empty when there are none. */
export function backgroundText(b: TuiState['background']): string {
  return [b.cron > 0 ? `⏰ ${b.cron}` : '', b.shells > 0 ? `⚙ ${b.shells}` : ''].filter(Boolean).join(' · ');
}

export function activityText(v: StatusView, now: number): string {
  if (v.waiting === 'answer') return 'waiting for your answer';
  if (v.waiting === 'approval') return 'waiting for approval';
  if (!v.busy || !v.phase) return '';
  const secs = `${(Math.max(0, now - v.phase.since) / 1000).toFixed(1)}s`;
  switch (v.phase.kind) {
    case 'waiting':
    case 'thinking':
      return `thinking ${secs}`;
    case 'responding':
      // The streaming text shows that it is alive: whole seconds, so the row changes once a second,
      // not five times (each change is a cursor trip to the bottom row and back).
      return `responding ${Math.floor(Math.max(0, now - v.phase.since) / 1000)}s`;
    case 'tools':
      return v.runningTools > 0 ? `running ${v.runningTools} tool${v.runningTools === 1 ? '' : 's'} ${secs}` : `working ${secs}`;
  }
}

/** " ~$0.04": the estimated cost so far; "+" when a model used has no price; empty while nothing cost anything. With a spending cap: " ~$0.04/$0.50 cap". */
export function costText(v: Pick<StatusView, 'usage' | 'pricing' | 'maxBudgetUsd'>): string {
  const summary = costSummary(v.usage.byModel, v.pricing);
  const spent = `~${formatCost(summary.total)}${summary.unpriced.length > 0 ? '+' : ''}`;
  if (v.maxBudgetUsd !== undefined) return ` ${spent}/${formatCost(v.maxBudgetUsd)} cap`;
  if (summary.total === 0) return '';
  return ` ${spent}`;
}

function contextBar(v: StatusView, theme: Theme): string {
  const ratio = Math.min(1, v.usage.context / v.limit);
  const cells = 8;
  const filled = Math.round(ratio * cells);
  const token = ratio >= 0.8 ? 'error' : ratio >= 0.5 ? 'warning' : 'success';
  const bar = paint(theme, token, '▰'.repeat(filled)) + paint(theme, 'muted', '▱'.repeat(cells - filled));
  return `ctx ${bar} ${formatTokens(v.usage.context)}/${formatContext(v.limit)}`;
}

/** Whether the bar's activity timer is running (it redraws every STATUS_TICK_MS while it is). */
export function statusTicks(v: Pick<StatusView, 'busy' | 'exitArmedAt'>): boolean {
  return v.busy || v.exitArmedAt !== undefined;
}

export const STATUS_TICK_MS = 200;

/** Whether the bar says "Press Ctrl+C again to exit" (for a while after the first Ctrl+C). */
export function exitHintShown(exitArmedAt: number | undefined, now: number): boolean {
  return exitArmedAt !== undefined && now - exitArmedAt < EXIT_CONFIRM_MS;
}

/** Mode, what the agent is doing, context fill and token totals; segments drop from the right to fit. */
export function statusBarText(v: StatusView, theme: Theme, width: number, now: number): string {
  const activity = exitHintShown(v.exitArmedAt, now) ? paint(theme, 'warning', 'Press Ctrl+C again to exit') : paint(theme, 'running', activityText(v, now));
  const modeToken = v.mode === 'default' ? 'muted' : v.mode === 'plan' ? 'accent' : 'warning';
  const segments = [
    paint(theme, modeToken, `⏵ ${modeLabel(v.mode)}`) + paint(theme, 'muted', ' (shift+tab)'),
    activity,
    paint(theme, 'accent', backgroundText(v.background)),
    paint(theme, 'muted', v.mcp),
    contextBar(v, theme),
    paint(theme, 'muted', `↑${formatTokens(v.usage.input)} ↓${formatTokens(v.usage.output)}${costText(v)}`),
  ].filter((s) => s !== '');
  const sep = paint(theme, 'muted', ' · ');
  let text = segments.join(sep);
  while (segments.length > 2 && textWidth(text) > width) {
    segments.pop();
    text = segments.join(sep);
  }
  return clipLine(text, width);
}

