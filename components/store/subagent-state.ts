import { isLive } from './tool-card.js';
import type { SubagentActivity, ToolItem, TranscriptItem } from './types.js';

export type { SubagentActivity };
import { itemAt } from '../../src/util/invariant.js';


// Tool-use ids are only unique within one agent's history (the offline model numbers them per
// request), so a nested card's id is its parent card's id plus its own.
export const NEST_SEP = '›';

export function nestedId(parentCardId: string, rawId: string): string {
  return `${parentCardId}${NEST_SEP}${rawId}`;
}

/** The running tool a subagent is busy with, innermost last-started first. */
export function currentTool(activity: SubagentActivity): ToolItem | undefined {
  for (let i = activity.tools.length - 1; i >= 0; i--) {
    const t = itemAt(activity.tools, i, 'subagent tool');
    if (isLive(t.status)) return t;
  }
  return undefined;
}

/**
 * Changes the tool card with (qualified) id `id`, wherever it is nested; returns the same array
 * when there is no such card. Recent cards are searched first.
 */
export function mapToolDeep(items: readonly ToolItem[], id: string, change: (t: ToolItem) => ToolItem): readonly ToolItem[];
export function mapToolDeep(items: readonly TranscriptItem[], id: string, change: (t: ToolItem) => ToolItem): readonly TranscriptItem[];
export function mapToolDeep(items: readonly TranscriptItem[], id: string, change: (t: ToolItem) => ToolItem): readonly TranscriptItem[] {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = itemAt(items, i, 'transcript item');
    if (item.kind !== 'tool') continue;
    let next: ToolItem | undefined;
    if (item.id === id) next = change(item);
    else if (item.child && id.startsWith(item.id + NEST_SEP)) {
      const tools = mapToolDeep(item.child.tools, id, change);
      if (tools !== item.child.tools) next = { ...item, child: { ...item.child, tools } };
    }
    if (next) {
      const out = items.slice();
      out[i] = next;
      return out;
    }
  }
  return items;
}

/** The card with (qualified) id `id`, wherever it is nested. */
export function findToolDeep(items: readonly TranscriptItem[], id: string): ToolItem | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = itemAt(items, i, 'transcript item');
    if (item.kind !== 'tool') continue;
    if (item.id === id) return item;
    if (item.child && id.startsWith(item.id + NEST_SEP)) return findToolDeep(item.child.tools, id);
  }
  return undefined;
}
