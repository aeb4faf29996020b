import { clipLine, inverse, paint, stripAnsi } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { NEST_SEP } from '../store/subagent-state.js';
import { isLive } from '../store/tool-card.js';
import type { ApprovalUi, PermissionRequest, ToolItem, TranscriptItem } from '../store/types.js';
import { bookkeepingLine, foldsIntoLine } from './bookkeeping-line.js';
import { approvalLines } from './approval-lines.js';
import type { createItemLines } from './item-lines.js';
import { isExpanded, toolHeader } from './item-lines.js';
import type { FrameInfo } from './frame-info.js';
import { subagentParts } from './subagent-blocks.js';
import { findingCards, findingLines } from './finding-lines.js';
import { itemAt } from '../../src/util/invariant.js';

type ItemLines = ReturnType<typeof createItemLines>;

/** A run of transcript lines: an item (with its blank lead line), a batch header or an approval. */
export interface LineBlock {
  readonly id: string;
  readonly start: number;
  readonly count: number;
  /** A running card: its spinner and timer change every tick. */
  readonly live?: boolean;
  line(i: number, frame: FrameInfo): string;
}

export interface LineIndex {
  readonly blocks: readonly LineBlock[];
  readonly total: number;
  /** Where the approval block sits, so the view can keep it on screen. */
  readonly approval?: { start: number; count: number };
  readonly liveTools: boolean;
}

export interface IndexInput {
  items: readonly TranscriptItem[];
  width: number;
  theme: Theme;
  selectedId: string | undefined;
  approvals: readonly PermissionRequest[];
  approval: ApprovalUi;
  itemLines: ItemLines;
  /** Rows the approval may take (the view's): it is fitted to them, choices and hint first. */
  approvalRows?: number;
}

const GUTTER = '┃ ';

/** One pass over the items using cached lines: cost per item is a cache lookup, not a render. */
export function buildLineIndex(input: IndexInput): LineIndex {
  const { items, width, theme, selectedId, itemLines } = input;
  const blocks: LineBlock[] = [];
  let total = 0;
  let approvalAt: { start: number; count: number } | undefined;
  let liveTools = false;
  const head = input.approvals[0];
  const addStatic = (id: string, lines: readonly string[]): void => {
    if (lines.length === 0) return;
    const start = total;
    blocks.push({ id, start, count: lines.length, line: (i) => lines[i] ?? '' });
    total += lines.length;
  };
  const addApproval = (request: PermissionRequest): void => {
    const lines = approvalLines(request, input.approval, width, theme, input.approvals.length - 1, input.approvalRows).map((l) => clipLine(l, width));
    approvalAt = { start: total, count: lines.length };
    addStatic(`approval:${request.id}`, lines);
  };

  // The bookkeeping calls folded into the line being built (see bookkeeping-line.ts).
  let run: ToolItem[] | undefined;
  items.forEach((item, i) => {
    const prev = i > 0 ? items[i - 1] : undefined;
    // A call that ran beside others keeps its card in their group.
    if (item.kind === 'tool' && foldsIntoLine(item, selectedId) && !(item.parallel && groupSize(items, i) > 1)) {
      if (run && prev && run[run.length - 1] === prev) {
        run.push(item);
        return;
      }
      if (prev !== undefined && prev.kind !== 'tool') addStatic(`lead:${item.id}`, ['']);
      const folded: ToolItem[] = (run = [item]);
      blocks.push({ id: item.id, start: total, count: 1, line: () => bookkeepingLine(folded, width, theme) });
      total += 1;
      return;
    }
    run = undefined;
    const inBatch = item.kind === 'tool' && item.parallel && groupSize(items, i) > 1;
    const batchStart = inBatch && !(prev?.kind === 'tool' && prev.batch === item.batch);
    const lead = prev !== undefined && !(item.kind === 'tool' && prev.kind === 'tool') ? 1 : 0;
    if (lead) addStatic(`lead:${item.id}`, ['']);
    if (item.kind === 'tool') {
      if (batchStart) addStatic(`batch:${item.id}`, [batchHeader(items, i, width, theme)]);
      const body = itemLines.body(item, width - (inBatch ? 2 : 0), theme);
      const gutter = inBatch ? paint(theme, 'accent', GUTTER) : '';
      const start = total;
      const selected = item.id === selectedId;
      if (isLive(item.status)) liveTools = true;
      blocks.push({
        id: item.id,
        start,
        live: isLive(item.status),
        count: 1 + body.length,
        line: (n, frame) =>
          n === 0 ? gutter + toolHeader(item, width - (inBatch ? 2 : 0), theme, frame.now, frame.tick, selected) : gutter + (body[n - 1] ?? ''),
      });
      total += 1 + body.length;
      const asking = head ? (head.cardId ?? head.id) : undefined;
      if (item.child && isExpanded(item)) {
        // A subagent's cards, inside the batch gutter; its approval goes under the card that asks.
        for (const part of subagentParts(item, { width: width - (inBatch ? 2 : 0), theme, selectedId, itemLines })) {
          if (part.kind === 'approval') {
            if (head && part.cardId === asking) addApproval(head);
            continue;
          }
          if (part.live) liveTools = true;
          blocks.push({ id: part.id, start: total, live: part.live, count: part.count, line: (n, frame) => gutter + part.line(n, frame) });
          total += part.count;
        }
      }
      // A review's findings: a card each, under the report.
      for (const card of findingCards(item)) {
        const lines = findingLines(card, width - (inBatch ? 2 : 0), theme, card.id === selectedId).map((l) => gutter + l);
        blocks.push({ id: card.id, start: total, count: lines.length, line: (n) => lines[n] ?? '' });
        total += lines.length;
      }
      if (head && !approvalAt && (asking === item.id || asking?.startsWith(item.id + NEST_SEP))) addApproval(head);
    } else {
      const lines = itemLines.body(item, width, theme);
      const markable = item.kind === 'cron' || (item.kind === 'user' && item.display !== undefined);
      addStatic(item.id, markable && item.id === selectedId ? markSelected(lines) : lines);
    }
  });
  // A request without a card (a subagent's, say) still needs its prompt.
  if (head && !approvalAt) addApproval(head);
  return { blocks, total, liveTools, ...(approvalAt ? { approval: approvalAt } : {}) };
}

function groupSize(items: readonly TranscriptItem[], i: number): number {
  const item = items[i];
  if (item?.kind !== 'tool') return 0;
  let n = 1;
  for (let j = i - 1; j >= 0; j--) {
    const o = items[j];
    if (o?.kind !== 'tool' || o.batch !== item.batch) break;
    n++;
  }
  for (let j = i + 1; j < items.length; j++) {
    const o = items[j];
    if (o?.kind !== 'tool' || o.batch !== item.batch) break;
    n++;
  }
  return n;
}

function batchHeader(items: readonly TranscriptItem[], i: number, width: number, theme: Theme): string {
  const n = groupSize(items, i);
  let running = false;
  for (let j = i; j < i + n; j++) {
    const t = items[j];
    if (t?.kind === 'tool' && isLive(t.status)) running = true;
  }
  return clipLine(paint(theme, 'accent', `┏ ${n} tools ${running ? 'running' : 'ran'} together`), width);
}

/** The lines from `top` to `top + height`: a binary search, then only the visible blocks. */
export function visibleLines(index: LineIndex, top: number, height: number, frame: FrameInfo): string[] {
  const out: string[] = [];
  const { blocks } = index;
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (itemAt(blocks, mid, 'line block').start <= top) lo = mid;
    else hi = mid - 1;
  }
  for (let b = lo; b < blocks.length && out.length < height; b++) {
    const block = itemAt(blocks, b, 'line block');
    for (let n = Math.max(0, top - block.start); n < block.count && out.length < height; n++) out.push(block.line(n, frame));
  }
  return out;
}

export function blockOf(index: LineIndex, id: string): LineBlock | undefined {
  return index.blocks.find((b) => b.id === id);
}

/** A one-line card without a live header shows selection on its first line. */
function markSelected(lines: readonly string[]): string[] {
  const [first = '', ...rest] = lines;
  return [inverse(stripAnsi(first)), ...rest];
}
