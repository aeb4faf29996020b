import { Box, Text } from 'ink';
import { memo, useLayoutEffect, useMemo } from 'react';
import type { ViewMetrics } from '../keys/view-metrics.js';
import type { TuiStore } from '../store/create-store.js';
import type { TuiState, ViewerState } from '../store/types.js';
import { useStoreSelector } from '../store/use-store-selector.js';
import { bold, clipLine, inverse, paint, stripAnsi } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { useTheme } from '../theme/use-theme.js';
import { viewerContent } from '../transcript/viewer-content.js';
import { ASK_USER_QUESTION } from '../../src/tools/ask-user-question-schema.js';

export interface ContentViewerProps {
  store: TuiStore;
  width: number;
  /** Rows it has: a title row, the content, a footer row. */
  height: number;
  /** Written after each render for the viewer's keys. */
  view: ViewMetrics;
}

const selectViewer = (s: TuiState): ViewerState | undefined => s.viewer;
const selectItems = (s: TuiState): TuiState['items'] => s.items;
const selectApprovals = (s: TuiState): TuiState['approvals'] => s.approvals;

/** A card's or an approval's whole content in place of the transcript: scrolled by keys, searchable. */
export const ContentViewer = memo(function ContentViewer({ store, width, height, view }: ContentViewerProps) {
  const viewer = useStoreSelector(store, selectViewer);
  const items = useStoreSelector(store, selectItems);
  const approvals = useStoreSelector(store, selectApprovals);
  const theme = useTheme(store);
  const source = viewer?.source;
  const content = useMemo(() => (source ? viewerContent({ items, approvals }, source, width, theme) : undefined), [source, items, approvals, width, theme]);
  const plain = useMemo(() => (content?.lines ?? []).map(stripAnsi), [content]);
  const rows = Math.max(1, height - 2);
  useLayoutEffect(() => {
    view.viewer = { height: rows, lines: plain };
    return () => {
      view.viewer = undefined;
    };
  });
  if (!viewer) return null;
  const total = plain.length;
  const top = Math.max(0, Math.min(viewer.top, total - rows));
  const query = viewer.search && !viewer.search.typing ? viewer.search.query : '';
  const body = (content?.lines ?? []).slice(top, top + rows).map((line, i) => highlight(line, plain[top + i] ?? '', query, top + i === viewer.match));
  while (body.length < rows) body.push(content ? paint(theme, 'muted', '~') : '');
  if (!content) body[0] = paint(theme, 'warning', 'This is no longer there (the approval was answered or the card cleared). q goes back.');
  const title = `${paint(theme, 'accent', '▌')}${bold(content?.title ?? 'full view')}${paint(theme, 'muted', ` · ${total} line${total === 1 ? '' : 's'}`)}`;
  const lines = [title, ...body, footer(viewer, { top, rows, total, plain, theme, approvalWaits: viewer.source.kind === 'approval' ? undefined : approvals[0]?.name === ASK_USER_QUESTION ? 'a question is waiting for your answer' : approvals.length > 0 ? 'an approval is waiting' : undefined })];
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {lines.slice(0, height).map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {clipLine(line === '' ? ' ' : line, width)}
        </Text>
      ))}
    </Box>
  );
});

/** A line with the query's matches in inverse video (on its plain text: colours give way to the marks). */
function highlight(line: string, plain: string, query: string, current: boolean): string {
  if (query === '') return line;
  const lower = plain.toLowerCase();
  const q = query.toLowerCase();
  if (!lower.includes(q)) return line;
  let out = current ? '▶' : '';
  let at = 0;
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, at)) {
    out += plain.slice(at, i) + inverse(plain.slice(i, i + q.length));
    at = i + q.length;
  }
  return out + plain.slice(at);
}

interface FooterInfo {
  top: number;
  rows: number;
  total: number;
  plain: readonly string[];
  theme: Theme;
  /** What the footer says waits behind the view (an approval, the model's question), if anything does. */
  approvalWaits: string | undefined;
}

function footer(viewer: ViewerState, { top, rows, total, plain, theme, approvalWaits }: FooterInfo): string {
  if (viewer.search?.typing) return `/${viewer.search.query}█ ${paint(theme, 'muted', ' Enter finds · Esc cancels')}`;
  const shown = total === 0 ? 'empty' : `${top + 1}-${Math.min(total, top + rows)} of ${total}`;
  const parts = [shown];
  const query = viewer.search?.query;
  if (query) {
    const matches = plain.filter((l) => l.toLowerCase().includes(query.toLowerCase())).length;
    parts.push(matches === 0 ? `no match for "${query}"` : viewer.match !== undefined ? `match ${ordinal(plain, query, viewer.match)}/${matches} · n next · N previous` : `${matches} matches`);
  }
  parts.push('q back · ↑↓ PgUp PgDn Home End · / search');
  if (approvalWaits !== undefined) parts.push(approvalWaits);
  return paint(theme, 'muted', parts.join(' · '));
}

function ordinal(plain: readonly string[], query: string, line: number): number {
  const q = query.toLowerCase();
  return plain.slice(0, line + 1).filter((l) => l.toLowerCase().includes(q)).length;
}
