import type { CompactItem } from '../store/types.js';
import { formatTokens } from './format-tokens.js';
import { clipLine, paint, textWidth, wrapPainted } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

/** "── compacted: 12.3k → 1.1k tokens (auto) ──" across the width; the summary below when unfolded. */
export function compactLines(item: CompactItem, width: number, theme: Theme, expanded: boolean): string[] {
  const label = ` compacted: ${formatTokens(item.tokensBefore)} → ${formatTokens(item.tokensAfter)} tokens (${item.trigger}) `;
  const room = Math.max(0, width - textWidth(label));
  const left = Math.min(2, room);
  const divider = clipLine(paint(theme, 'border', '─'.repeat(left)) + paint(theme, 'muted', label) + paint(theme, 'border', '─'.repeat(room - left)), width);
  if (!expanded) return [divider];
  const summary = item.summary.trim() || '(no summary)';
  return [divider, ...wrapPainted(theme, 'muted', summary, Math.max(1, width - 2)).map((l) => `  ${l}`)];
}
