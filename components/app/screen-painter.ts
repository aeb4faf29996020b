// Draws the rows that change many times a second (the transcript, the prompt box, the status
// row) straight through the frame writer, without React or Ink: the store notifies, the painter
// asks for a frame, and the rows are computed once per drawn frame. A keystroke's frame is drawn
// at once; a streaming answer's and the timers' frames are coalesced to ~20 per second (FRAME_MS). React
// and Ink draw the rest (header, dialogs, palette) and lay out blank rows where these go.
import type { ViewMetrics } from '../keys/view-metrics.js';
import { onMarkdownChange } from '../markdown/render-markdown.js';
import { promptLines, promptPlaceholder } from '../prompt/prompt-lines.js';
import { activityText, exitHintShown, selectStatus, STATUS_TICK_MS, statusTicks } from '../status-bar-text.js';
import { statusRowLine } from '../StatusRow.js';
import type { TuiStore } from '../store/create-store.js';
import { lastValue } from '../store/last-value.js';
import type { TuiState } from '../store/types.js';
import type { LineOverlay, OverlayRows } from '../terminal/line-overlay.js';
import { themeFor } from '../theme/use-theme.js';
import type { createItemLines } from '../transcript/item-lines.js';
import { SPINNER_MS, TranscriptPane } from '../transcript/transcript-pane.js';
import type { Layout } from './layout.js';
import type { StatusLineText } from './status-line.js';
import { watchToastExpiry } from './toast-expiry.js';

/** The layout the painter draws into: App's, plus whether the full view covers the transcript. */
export interface PaintLayout extends Layout {
  viewerOpen: boolean;
}

export interface ScreenPainter {
  /** App's layout after each render that changed it; undefined when App is gone. */
  setLayout(layout: PaintLayout | undefined): void;
  dispose(): void;
}

export interface ScreenPainterOptions {
  store: TuiStore;
  overlay: LineOverlay;
  itemLines: ReturnType<typeof createItemLines>;
  view: ViewMetrics;
  /** The user's statusLine command, in place of the built-in status bar. */
  statusLine?: StatusLineText | undefined;
  now?: () => number;
}

/** After a keystroke during a turn, the terminal's cursor stays at the caret this long (for input methods). */
export const PARK_CURSOR_MS = 3000;

export const selectEditorFocused = (s: TuiState): boolean => s.approvals.length === 0 && s.focus === 'editor' && s.dialog === undefined && s.viewer === undefined;

export { promptPlaceholder };

/** Rows above the prompt box: header, transcript and whatever Ink draws between them. */
export function promptTop(layout: Layout): number {
  return layout.header + layout.transcript + layout.queued + layout.palette + layout.dialog + layout.plan + layout.todos;
}

/** Store changes a person caused: their frame is drawn at once, not with the next stream frame. */
function userVisibleNow(a: TuiState, b: TuiState): boolean {
  return a.editor !== b.editor || a.focus !== b.focus || a.scroll !== b.scroll || a.selectedId !== b.selectedId || a.approval !== b.approval || a.themeName !== b.themeName || a.busy !== b.busy || a.plan !== b.plan;
}

export function createScreenPainter(options: ScreenPainterOptions): ScreenPainter {
  const { store, overlay, view } = options;
  const now = options.now ?? Date.now;
  const pane = new TranscriptPane(options.itemLines, view);
  let layout: PaintLayout | undefined;
  let last = store.getSnapshot();
  let tick = 0;
  let spinner: ReturnType<typeof setInterval> | undefined;
  let statusTimer: ReturnType<typeof setInterval> | undefined;
  let disposed = false;
  // When the draft last changed: while output streams, the cursor is kept at the caret only then.
  let typedAt = -Infinity;

  const every = (current: ReturnType<typeof setInterval> | undefined, on: boolean, ms: number, fn: () => void): ReturnType<typeof setInterval> | undefined => {
    if (on && !current) return setInterval(fn, ms);
    if (!on && current) clearInterval(current);
    return on ? current : undefined;
  };
  const onSpinner = (): void => {
    tick++;
    overlay.invalidate(false);
  };
  const onStatusTick = (): void => overlay.invalidate(false);

  // Drawn every frame, built again only when what they show changed (the draft, the bar's figures).
  const promptRows = lastValue<string[]>();
  const statusRow = lastValue<string>();

  const rows = (): OverlayRows[] => {
    if (!layout || disposed) return [];
    const state = store.getSnapshot();
    const at = now();
    const out: OverlayRows[] = [];
    const { width } = layout;
    let live = false;
    if (!layout.viewerOpen) {
      const frame = pane.frame(state, width, layout.transcript, at, tick);
      live = frame.live;
      out.push({ top: layout.header, lines: frame.rows });
      const shift = frame.shift;
      // Not inside the frame being drawn: the next one shows the shifted view.
      if (shift !== undefined) queueMicrotask(() => store.dispatch({ type: 'scrollShift', lines: shift }));
    }
    spinner = every(spinner, live, SPINNER_MS, onSpinner);
    const top = promptTop(layout);
    const focused = selectEditorFocused(state);
    const { promptMaxLines, promptBare, prompt: promptHeight } = layout;
    const prompt = promptRows([state.editor, width, focused, promptMaxLines, promptBare, state.busy, promptHeight], () =>
      promptLines({
        state: state.editor,
        width,
        focused,
        maxLines: promptMaxLines,
        bare: promptBare,
        busy: state.busy,
        placeholder: promptPlaceholder(state.busy),
      }).slice(0, promptHeight),
    );
    out.push({ top, lines: prompt });
    if (layout.status > 0) {
      const status = selectStatus(state);
      statusTimer = every(statusTimer, statusTicks(status), STATUS_TICK_MS, onStatusTick);
      const custom = options.statusLine?.get();
      // What the bar shows of the state, and of the clock (the activity's timer, the Ctrl+C hint).
      const inputs: unknown[] = [...(Object.values(status) as unknown[]), activityText(status, at), exitHintShown(status.exitArmedAt, at), state.toasts, state.themeName, width, custom];
      out.push({ top: top + layout.prompt, lines: [statusRow(inputs, () => statusRowLine(state, themeFor(state.themeName), width, at, custom))] });
    } else {
      statusTimer = every(statusTimer, false, STATUS_TICK_MS, onStatusTick);
    }
    return out;
  };

  const stopToastExpiry = watchToastExpiry(store, now);
  const offStore = store.subscribe(() => {
    const state = store.getSnapshot();
    const urgent = userVisibleNow(last, state);
    if (state.editor !== last.editor) typedAt = now();
    last = state;
    overlay.invalidate(urgent);
  });
  const offStatusLine = options.statusLine?.subscribe(() => overlay.invalidate(false));
  // A code block drawn plain while its language loaded is coloured in the next frame.
  const offMarkdown = onMarkdownChange(() => overlay.invalidate(false));
  overlay.setPainter({
    rows,
    cursor: () => (!store.getSnapshot().busy ? 'show' : now() - typedAt < PARK_CURSOR_MS ? 'park' : 'leave'),
  });

  return {
    setLayout(next) {
      layout = next;
      overlay.invalidate(true);
    },
    dispose() {
      disposed = true;
      offStore();
      offStatusLine?.();
      offMarkdown();
      spinner = every(spinner, false, SPINNER_MS, onSpinner);
      statusTimer = every(statusTimer, false, STATUS_TICK_MS, onStatusTick);
      stopToastExpiry();
      overlay.setPainter(undefined);
    },
  };
}
