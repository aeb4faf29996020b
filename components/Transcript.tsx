import { Box, Text } from 'ink';
import { memo, useContext, useLayoutEffect, useMemo, useState } from 'react';
import { OverlayContext } from './app/overlay-context.js';
import type { createItemLines } from './transcript/item-lines.js';
import { buildLineIndex, visibleLines } from './transcript/line-index.js';
import { useTicker } from './app/use-ticker.js';
import { liveInView, viewWindow } from './transcript/view-top.js';
import type { ViewMetrics } from './keys/view-metrics.js';
import type { TuiStore } from './store/create-store.js';
import type { TranscriptItem, TuiState } from './store/types.js';
import { useStoreSelector } from './store/use-store-selector.js';
import { clipLine, paint } from './theme/ansi.js';
import { useTheme } from './theme/use-theme.js';

export interface TranscriptProps {
  store: TuiStore;
  width: number;
  height: number;
  itemLines: ReturnType<typeof createItemLines>;
  /** Written after each render for the scroll and selection keys. */
  view: ViewMetrics;
  /** The transcript's first row in the frame (below the header). */
  top?: number;
}

const SPINNER_MS = 100;
/**
 * Items laid out at once. A resumed 10,000-message session shows its last items in the first
 * frame; older ones are laid out a window at a time when the view reaches the top.
 */
export const TRANSCRIPT_WINDOW = 400;

function earlierMarker(count: number): TranscriptItem {
  return { kind: 'notice', id: `earlier:${count}`, level: 'info', message: `⋯ ${count} earlier items above: scroll up to show them` };
}

const selectItems = (s: TuiState): TuiState['items'] => s.items;
const selectSelected = (s: TuiState): string | undefined => (s.focus === 'transcript' ? s.selectedId : undefined);
const selectApprovals = (s: TuiState): TuiState['approvals'] => s.approvals;
const selectApproval = (s: TuiState): TuiState['approval'] => s.approval;
const selectScroll = (s: TuiState): TuiState['scroll'] => s.scroll;

/** Only the visible slice of pre-rendered lines is mounted, so a frame costs the same at any length. */
export const Transcript = memo(function Transcript({ store, width, height, itemLines, view, top = 0 }: TranscriptProps) {
  const overlay = useContext(OverlayContext);
  const items = useStoreSelector(store, selectItems);
  const selectedId = useStoreSelector(store, selectSelected);
  const approvals = useStoreSelector(store, selectApprovals);
  const approval = useStoreSelector(store, selectApproval);
  const scroll = useStoreSelector(store, selectScroll);
  const theme = useTheme(store);
  const [from, setFrom] = useState(() => Math.max(0, items.length - TRANSCRIPT_WINDOW));
  const marker0 = useMemo(() => (from > 0 ? earlierMarker(from) : undefined), [from]);
  const shown = useMemo(() => (marker0 ? [marker0, ...items.slice(from)] : items), [items, from, marker0]);
  // Scrolled off the bottom, a row shows the "more below" marker (see viewWindow).
  const approvalRows = scroll.follow ? height : Math.max(1, height - 1);
  const index = useMemo(
    () => buildLineIndex({ items: shown, width, theme, selectedId, approvals, approval, itemLines, approvalRows }),
    [shown, width, theme, selectedId, approvals, approval, itemLines, approvalRows],
  );
  const win = viewWindow(scroll, index, height);
  useLayoutEffect(() => {
    // At the top of what is laid out: lay out the previous window, keeping the same lines in view.
    if (from === 0 || scroll.follow || win.top > 0) return;
    const next = Math.max(0, from - TRANSCRIPT_WINDOW);
    const nextShown = next > 0 ? [earlierMarker(next), ...items.slice(next)] : items;
    const grown = buildLineIndex({ items: nextShown, width, theme, selectedId, approvals, approval, itemLines, approvalRows }).total - index.total;
    store.dispatch({ type: 'scrollShift', lines: grown });
    setFrom(next);
  }, [from, scroll.follow, win.top, items, width, theme, selectedId, approvals, approval, itemLines, approvalRows, index.total, store]);
  const tick = useTicker(liveInView(index, win.top, win.rows), SPINNER_MS);
  const lines = visibleLines(index, win.top, win.rows, { now: Date.now(), tick });
  useLayoutEffect(() => {
    view.height = height;
    view.total = index.total;
    view.index = index;
  });
  const marker =
    win.marker === 'new'
      ? paint(theme, 'accent', '↓ new output below (End to follow)')
      : win.marker === 'more'
        ? paint(theme, 'muted', '↓ more below (End to follow)')
        : undefined;
  useLayoutEffect(() => {
    if (!overlay) return;
    const rows = lines.slice(0, height).map((l) => clipLine(l, width));
    while (rows.length < height) rows.push('');
    if (marker) rows[height - 1] = clipLine(marker, width);
    overlay.set(top, rows);
  });
  // A layout effect: its cleanup runs before Ink draws the frame that replaces the transcript (the full view).
  useLayoutEffect(() => (overlay ? () => overlay.clear() : undefined), [overlay]);
  if (overlay) return <Box width={width} height={height} />;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {lines.map((line, i) => (
        <Line key={i} text={line} />
      ))}
      {marker ? <Box flexGrow={1} /> : null}
      {marker ? <Line text={clipLine(marker, width)} /> : null}
    </Box>
  );
});

const Line = memo(function Line({ text }: { text: string }) {
  return <Text wrap="truncate-end">{text === '' ? ' ' : text}</Text>;
});
