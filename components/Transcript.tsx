import { Box, Text } from 'ink';
import { memo, useEffect, useLayoutEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { createItemLines } from './transcript/item-lines.js';
import { SPINNER_MS, TranscriptPane } from './transcript/transcript-pane.js';
import { markdownVersion, onMarkdownChange } from './markdown/render-markdown.js';
import type { ViewMetrics } from './keys/view-metrics.js';
import type { TuiStore } from './store/create-store.js';

export { TRANSCRIPT_WINDOW } from './transcript/transcript-pane.js';

export interface TranscriptProps {
  store: TuiStore;
  width: number;
  height: number;
  itemLines: ReturnType<typeof createItemLines>;
  /** Written after each render for the scroll and selection keys. */
  view: ViewMetrics;
}

/**
 * The transcript through Ink, where there is no frame writer (tests, CAIRN_FRAME_WRITER=0): the
 * rows the screen painter draws, one Text each. Only the visible rows are mounted, so a frame
 * costs the same at any length.
 */
export const Transcript = memo(function Transcript({ store, width, height, itemLines, view }: TranscriptProps) {
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const pane = useMemo(() => new TranscriptPane(itemLines, view), [itemLines, view]);
  const [tick, setTick] = useState(0);
  // Renders again when a code block drawn plain while its language loaded can be coloured (the
  // pane's layout is keyed on markdownVersion).
  useSyncExternalStore(onMarkdownChange, markdownVersion, markdownVersion);
  const frame = pane.frame(state, width, height, Date.now(), tick);
  useEffect(() => {
    if (!frame.live) return undefined;
    const timer = setInterval(() => setTick((t) => t + 1), SPINNER_MS);
    return () => clearInterval(timer);
  }, [frame.live]);
  const shift = frame.shift;
  // Every render: only the render that laid out an earlier window has a shift to apply.
  useLayoutEffect(() => {
    if (shift !== undefined) store.dispatch({ type: 'scrollShift', lines: shift });
  });
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {frame.rows.map((line, i) => (
        <Line key={i} text={line} />
      ))}
    </Box>
  );
});

const Line = memo(function Line({ text }: { text: string }) {
  return <Text wrap="truncate-end">{text === '' ? ' ' : text}</Text>;
});
