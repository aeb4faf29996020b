import { isExpanded } from '../transcript/item-lines.js';
import type { CronItem } from '../store/background-state.js';
import { findingCards, type FindingCard } from '../transcript/finding-lines.js';
import type { CompactItem, ThinkingItem, ToolItem, TranscriptItem, UserItem } from '../store/types.js';

/** A review finding (report_findings) is a card of its own, under its report's. */
export type SelectableCard = ToolItem | ThinkingItem | CompactItem | CronItem | UserItem | FindingCard;

/** The cards selection mode moves over, in screen order: a subagent's visible nested cards included. */
export function selectableCards(items: readonly TranscriptItem[]): SelectableCard[] {
  const out: SelectableCard[] = [];
  const addTool = (tool: ToolItem): void => {
    out.push(tool);
    if (tool.child && isExpanded(tool)) for (const nested of tool.child.tools) addTool(nested);
  };
  for (const item of items) {
    if (item.kind === 'tool') {
      addTool(item);
      out.push(...findingCards(item));
    }
    else if (item.kind === 'thinking' || item.kind === 'compact' || item.kind === 'cron') out.push(item);
    // A prompt with folded pastes unfolds like a card.
    else if (item.kind === 'user' && item.display !== undefined) out.push(item);
  }
  return out;
}
