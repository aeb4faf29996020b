import type { ToolItem } from '../store/types.js';
import { paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { reportLines } from './agent-renderer.js';
import type { createItemLines } from './item-lines.js';
import { isExpanded, toolHeader } from './item-lines.js';
import type { FrameInfo } from './frame-info.js';
import { isLive } from '../store/tool-card.js';

type ItemLines = ReturnType<typeof createItemLines>;

/** A run of lines under an `agent` card: a nested card (its own block, so it can be selected) or the report. */
export interface NestedBlock {
  readonly kind: 'block';
  readonly id: string;
  readonly count: number;
  readonly live: boolean;
  line(i: number, frame: FrameInfo): string;
}

/** Where a nested card's approval prompt goes, if that card is the one asking. */
export interface ApprovalSlot {
  readonly kind: 'approval';
  readonly cardId: string;
}

export type NestedPart = NestedBlock | ApprovalSlot;

export interface NestedInput {
  width: number;
  theme: Theme;
  selectedId: string | undefined;
  itemLines: ItemLines;
}

const INDENT = '  ';

/**
 * What goes under an expanded `agent` card after its activity line: the subagent's cards, one
 * indent per depth (each with its own nested cards when it is an agent call), then its report.
 */
export function subagentParts(card: ToolItem, input: NestedInput): NestedPart[] {
  const parts: NestedPart[] = [];
  addChildren(parts, card, 1, input);
  return parts;
}

function addChildren(parts: NestedPart[], card: ToolItem, level: number, input: NestedInput): void {
  const { theme, itemLines, selectedId } = input;
  const indent = INDENT.repeat(level);
  const width = Math.max(1, input.width - indent.length);
  for (const tool of card.child?.tools ?? []) {
    const body = itemLines.body(tool, width, theme);
    const selected = tool.id === selectedId;
    parts.push({
      kind: 'block',
      id: tool.id,
      count: 1 + body.length,
      live: isLive(tool.status),
      line: (n, frame) => indent + (n === 0 ? toolHeader(tool, width, theme, frame.now, frame.tick, selected) : (body[n - 1] ?? '')),
    });
    parts.push({ kind: 'approval', cardId: tool.id });
    if (tool.child && isExpanded(tool)) addChildren(parts, tool, level + 1, input);
  }
  const report = reportLines(card, Math.max(1, width - 2), theme).map((l, i) => `${indent}${paint(theme, 'border', i === 0 ? '⎿ ' : '  ')}${l}`);
  if (report.length > 0) parts.push({ kind: 'block', id: `report:${card.id}`, count: report.length, live: false, line: (n) => report[n] ?? '' });
}
