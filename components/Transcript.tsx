import { Box, Text } from 'ink';
import { memo, useLayoutEffect, useMemo } from 'react';
import type { createItemLines } from './app/item-lines.js';
import { buildLineIndex, visibleLines } from './app/line-index.js';
import { useTicker } from './app/use-ticker.js';
import { liveInView, viewWindow } from './app/view-top.js';
import type { ViewMetrics } from './keys/view-metrics.js';
import type { TuiStore } from './store/create-store.js';
import type { TuiState } from './store/types.js';
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
}

const SPINNER_MS = 100;

const selectItems = (s: TuiState): TuiState['items'] => s.items;
const selectSelected = (s: TuiState): string | undefined => (s.focus === 'transcript' ? s.selectedId : undefined);
const selectApprovals = (s: TuiState): TuiState['approvals'] => s.approvals;
const selectApproval = (s: TuiState): TuiState['approval'] => s.approval;
const selectScroll = (s: TuiState): TuiState['scroll'] => s.scroll;

/** Only the visible slice of pre-rendered lines is mounted, so a frame costs the same at any length. */
export const Transcript = memo(function Transcript({ store, width, height, itemLines, view }: TranscriptProps) {
  const items = useStoreSelector(store, selectItems);
  const selectedId = useStoreSelector(store, selectSelected);
  const approvals = useStoreSelector(store, selectApprovals);
  const approval = useStoreSelector(store, selectApproval);
  const scroll = useStoreSelector(store, selectScroll);
  const theme = useTheme(store);
  const index = useMemo(
    () => buildLineIndex({ items, width, theme, selectedId, approvals, approval, itemLines }),
    [items, width, theme, selectedId, approvals, approval, itemLines],
  );
  const win = viewWindow(scroll, index, height);
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
