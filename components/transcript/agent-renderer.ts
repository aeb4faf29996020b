import { currentTool } from '../store/subagent-state.js';
import type { SubagentActivity } from '../store/subagent-state.js';
import { isLive } from '../store/tool-card.js';
import type { ToolItem } from '../store/types.js';
import { paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { formatTokens } from './format-tokens.js';
import { callView } from './call-view-lines.js';
import type { ToolCard } from './tool-card-contract.js';

const REPORT_LINES = 8;
const ERROR_LINES = 12;


function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "explore · turn 2 · 1.2k tokens · ▸ read_file a.txt": what the subagent is doing now. */
export function activityLine(activity: SubagentActivity): string {
  const parts = [activity.agentType, `turn ${activity.turns}`, `${formatTokens(activity.input + activity.output)} tokens`];
  const tool = currentTool(activity);
  if (activity.ended) parts.push(activity.ended.reason === 'completed' ? `done, ${plural(activity.tools.length, 'tool call')}` : activity.ended.reason);
  else if (tool) parts.push(`▸ ${tool.name} ${callView(tool).title}`.trim());
  else parts.push(activity.turns === 0 ? 'starting' : 'thinking');
  return parts.join(' · ');
}

/** The subagent's report (or why it failed), shown under its nested cards once it is done. */
export function reportLines(item: ToolItem, width: number, theme: Theme): string[] {
  if (item.result === undefined || isLive(item.status)) return [];
  const failed = item.status === 'error' || item.status === 'denied';
  const text = item.status === 'denied' ? `Denied: ${item.deniedReason ?? 'declined'}` : item.result;
  const lines = wrapText(text.replace(/\n+$/, ''), width);
  const max = failed ? ERROR_LINES : REPORT_LINES;
  const shown = lines.slice(0, max).map((l) => paint(theme, failed ? 'error' : 'muted', l));
  return lines.length > max ? [...shown, paint(theme, 'muted', `… ${lines.length - max} more lines`)] : shown;
}

/** An agent that worked in its own worktree: its branch and what it changed, or that the untouched worktree was removed. */
export function worktreeSummary(item: ToolItem): string | undefined {
  const w = item.display?.kind === 'agent' ? item.display.worktree : undefined;
  if (!w) return undefined;
  if (!w.kept) return 'worktree removed (no changes)';
  const commits = w.commits > 0 ? ` · ${plural(w.commits, 'commit')}` : '';
  return `branch ${w.branch} · ${plural(w.files, 'file')} +${w.added} -${w.removed}${commits}`;
}

/**
 * The `agent` card: the header names the type and task; the body is the live activity line.
 * The nested cards and the report are added by the line index (see subagent-blocks.ts).
 */
export function createAgentRenderer(): ToolCard {
  return {
    summary(item) {
      const a = item.child;
      const where = worktreeSummary(item);
      if (!a) return where;
      const spent = `${plural(a.turns, 'turn')} · ${formatTokens(a.input + a.output)} tokens`;
      return where === undefined ? spent : `${spent} · ${where}`;
    },
    body(item, width, theme) {
      const a = item.child;
      if (a) return [paint(theme, 'muted', activityLine(a))];
      // It never started (an unknown type): the result says why.
      return reportLines(item, width, theme);
    },
  };
}
