import { bold, clipLine, inverse, paint, wrapPainted, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import type { CronItem } from '../store/background-state.js';
import type { CompactItem, NoticeItem, TerminalItem, ThinkingItem, ToolItem, TranscriptItem, UserItem } from '../store/types.js';
import { isLive } from '../store/tool-card.js';
import { kittyPlaceholderRows } from '../terminal/kitty-images.js';
import { markdownVersion, renderMarkdown } from '../markdown/render-markdown.js';
import { PLAN_NOTICE } from './plan-lines.js';
import { compactLines } from './compact-lines.js';
import { cronLines } from './cron-lines.js';
import { hookNoteLines } from './hook-lines.js';
import type { createMarkdownLines } from './markdown-lines.js';
import { SHELL_CARD } from '../store/reduce-shell.js';
import { expandedByDefault, formatDuration, statusColor, statusGlyph } from './tool-status.js';
import { cardTitle, toolCard } from './tool-cards.js';

type MarkdownLines = ReturnType<typeof createMarkdownLines>;

export function isExpanded(item: ToolItem | ThinkingItem | CompactItem | CronItem | UserItem): boolean {
  if (item.userExpanded !== undefined) return item.userExpanded;
  // A `!` command's output is what the user asked to see: shown inline, as Claude Code does.
  return item.kind === 'tool' ? item.name === SHELL_CARD || expandedByDefault(item.status) : false;
}

/** The card's one-line header: drawn per frame (its spinner and timer move), everything else is cached. */
export function toolHeader(item: ToolItem, width: number, theme: Theme, now: number, tick: number, selected: boolean): string {
  const card = toolCard(item.name);
  const warning = item.status === 'success' ? card.warning?.(item) : undefined;
  const glyph = warning !== undefined ? paint(theme, 'warning', '!') : paint(theme, statusColor(item.status), statusGlyph(item.status, tick));
  const arg = cardTitle(item);
  const live = isLive(item.status);
  // No time while it waits for approval: the wait is the user's, not the tool's.
  const time = item.durationMs !== undefined ? formatDuration(item.durationMs) : item.status === 'running' ? formatDuration(Math.max(0, now - item.startedAt)) : '';
  const summary = !live ? card.summary?.(item) : undefined;
  const note = [summary, time].filter(Boolean).join(' · ');
  const name = selected ? inverse(` ${item.name} `) : bold(item.name);
  const warned = warning !== undefined ? `  ${paint(theme, 'warning', warning)}` : '';
  const text = `${glyph} ${name} ${arg}${warned}${note ? `  ${paint(theme, 'muted', note)}` : ''}`;
  return clipLine(text.replace(/\n/g, ' '), width);
}

/** Renders items to lines once per (item object, width, theme, expansion): items are immutable. */
export function createItemLines(markdown: MarkdownLines): {
  body(item: TranscriptItem, width: number, theme: Theme): string[];
} {
  const cache = new WeakMap<TranscriptItem, { key: string; lines: string[] }>();
  return {
    body(item, width, theme) {
      const expanded = item.kind === 'tool' || item.kind === 'thinking' || item.kind === 'compact' || item.kind === 'cron' || item.kind === 'user' ? isExpanded(item) : false;
      // The markdown version: text cached while the parser was still loading is rendered again.
      const key = `${width}|${theme.name}|${theme.color}|${expanded}|${markdownVersion()}`;
      const hit = cache.get(item);
      if (hit && hit.key === key) return hit.lines;
      const lines = render(item, width, theme, expanded, markdown);
      cache.set(item, { key, lines });
      return lines;
    },
  };
}

function render(item: TranscriptItem, width: number, theme: Theme, expanded: boolean, markdown: MarkdownLines): string[] {
  switch (item.kind) {
    case 'user':
      return userLines(item, width, theme, expanded);
    case 'assistant': {
      // A streaming answer's lines come clipped, block by block: re-clipping all of them on every
      // frame made the cost of a frame grow with the answer.
      if (item.streaming) return markdown.streaming(item.id, item.text, width, theme);
      return markdown.finished(item.id, item.text, width, theme).map((l) => clipLine(l, width));
    }
    case 'thinking':
      return thinkingLines(item, width, theme, expanded);
    case 'tool': {
      // What hooks did shows folded or not: a blocked call says why without opening the card.
      const hooks = hookNoteLines(item, width, theme);
      const inner = Math.max(1, width - 2);
      const card = toolCard(item.name);
      // Folded, a card may still show what matters most (a command's last lines, an unasked edit's diff).
      const lines = expanded ? card.body(item, inner, theme) : (card.folded?.(item, inner, theme) ?? []);
      return [...hooks, ...lines.map((l) => `${paint(theme, 'border', '⎿ ')}${clipLine(l, inner)}`)];
    }
    case 'notice':
      return noticeLines(item, width, theme);
    case 'terminal':
      return terminalLines(item, width, theme);
    case 'compact':
      return compactLines(item, width, theme, expanded);
    case 'cron':
      return cronLines(item, width, theme, expanded);
  }
}

/** A prompt sent with large pastes shows them as the editor did, with a toggle to unfold them. */
function userLines(item: UserItem, width: number, theme: Theme, expanded: boolean): string[] {
  const folded = item.display !== undefined && !expanded;
  const prompt = wrapText(folded ? item.display : item.text, Math.max(1, width - 2)).map((l, i) => paint(theme, 'user', `${i === 0 ? '› ' : '  '}${l}`));
  const lines = [
    ...prompt,
    ...(item.attachments ?? []).flatMap((label) => {
      const chip = clipLine(paint(theme, 'muted', `  ⎿ [${label}]`), width);
      const thumb = item.thumbnails?.[label];
      // Too narrow a terminal for the picture: the chip alone.
      if (!thumb || thumb.columns + 4 > width) return [chip];
      return [chip, ...kittyPlaceholderRows(thumb.image, thumb.columns, thumb.rows).map((row) => `    ${row}`)];
    }),
  ];
  if (item.display === undefined) return lines;
  const toggle = folded ? '▸ pasted text folded · Tab selects, Space unfolds' : '▾ pasted text unfolded · Space folds';
  return [...lines, clipLine(paint(theme, 'muted', `  ${toggle}`), width)];
}

function thinkingLines(item: ThinkingItem, width: number, theme: Theme, expanded: boolean): string[] {
  const text = item.text.trim();
  if (!expanded) {
    const last = text.split('\n').filter(Boolean).pop() ?? '';
    const label = item.streaming ? '✻ thinking… ' : '✻ thought: ';
    return [clipLine(paint(theme, 'muted', `${label}${item.streaming ? last : text.split('\n')[0] ?? ''}`), width)];
  }
  return [paint(theme, 'muted', '✻ thinking'), ...wrapPainted(theme, 'muted', text, Math.max(1, width - 2)).map((l) => `  ${l}`)];
}

const NOTICE_GLYPH = { info: 'ℹ', warning: '⚠', error: '✗' } as const;
const NOTICE_COLOR = { info: 'muted', warning: 'warning', error: 'error' } as const;

function noticeLines(item: NoticeItem, width: number, theme: Theme): string[] {
  if (item.code === PLAN_NOTICE) return planNoticeLines(item, width, theme);
  const lines = wrapText(item.message, Math.max(1, width - 2));
  return lines.map((l, i) => paint(theme, NOTICE_COLOR[item.level], `${i === 0 ? `${NOTICE_GLYPH[item.level]} ` : '  '}${l}`));
}

/** A plan shown again (/plan): its title line as a notice, the plan as Markdown under it. */
function planNoticeLines(item: NoticeItem, width: number, theme: Theme): string[] {
  const [head = '', ...rest] = item.message.split('\n');
  const body = renderMarkdown(rest.join('\n'), Math.max(1, width - 2), theme.color ? theme.name : 'none').map((l) => `  ${l}`);
  return [paint(theme, 'accent', clipLine(`${NOTICE_GLYPH.info} ${head}`, width)), ...body];
}

function terminalLines(item: TerminalItem, width: number, theme: Theme): string[] {
  switch (item.reason) {
    case 'aborted':
      return [paint(theme, 'warning', clipLine('■ Interrupted. What should cairn do instead?', width))];
    case 'max_turns':
      return wrapPainted(theme, 'warning', `■ ${item.error ?? 'Stopped: turn limit reached.'}`, width);
    case 'max_tokens':
      return wrapPainted(theme, 'warning', `■ ${item.error ?? 'Answer cut at the output limit.'}`, width);
    case 'max_budget':
      return wrapPainted(theme, 'warning', `■ ${item.error ?? 'Stopped: spending cap reached.'}`, width);
    case 'error':
      return wrapPainted(theme, 'error', `✗ ${item.error ?? 'The turn failed.'}`, width);
  }
}
