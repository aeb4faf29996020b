// The first frame, drawn before the UI's modules load: the header, the empty prompt box and the
// status row, built by the same functions the screen painter uses from the store's initial state,
// so the app's own first frame is a diff against it (usually nothing). Ink, React and the rest
// load after it is on screen. Keys typed meanwhile wait in the terminal (raw mode: nothing echoes)
// and reach the prompt once the app reads its input.
import type { PriceTable } from '../../src/pricing.js';
import type { PermissionMode } from '../../src/permission-modes.js';
import type { SessionFacts } from '../../src/runtime/session-facts.js';
import { headerText } from '../header-text.js';
import { promptLines, promptPlaceholder } from '../prompt/prompt-lines.js';
import { selectStatus, statusBarText } from '../status-bar-text.js';
import { initialState, reduce } from '../store/reduce.js';
import { findCaret } from '../terminal/caret.js';
import { createFrameWriter } from '../terminal/frame-writer.js';
import { createTheme, type ThemeName } from '../theme/theme.js';
import { loadTextWidth, TextWidthNotLoaded } from '../theme/text-width.js';
import { HEADER_MIN_ROWS } from './layout-rows.js';
import { openingActions } from './startup-notices.js';
import type { AgentEvent } from '../../src/events.js';
import { createViewMetrics } from '../keys/view-metrics.js';
import { createItemLines } from '../transcript/item-lines.js';
import { createMarkdownLines } from '../transcript/markdown-lines.js';
import { FIRST_WINDOW, TranscriptPane } from '../transcript/transcript-pane.js';
import { ENTER_SCREEN, LEAVE_SCREEN } from './terminal-output.js';
import { EXIT_SIGNALS, type ExitSignal } from './exit-signals.js';

/** What the header and status row say about the session, known before the engine loads. */
export interface EarlyFrameSession {
  provider: string;
  model: string;
  mode: PermissionMode;
  offline: boolean;
  /** A resumed session's message count (the "Resumed session" row). */
  messageCount?: number;
}

/** The header's facts as the session will have them once the engine has built it. */
export function earlyFrameSession(facts: Pick<SessionFacts, 'resolved' | 'mode'>, messageCount?: number): EarlyFrameSession {
  return {
    provider: facts.resolved.name,
    model: facts.resolved.model,
    mode: facts.mode,
    offline: facts.resolved.api === 'offline',
    ...(messageCount !== undefined ? { messageCount } : {}),
  };
}

export interface EarlyFrameOptions {
  session: EarlyFrameSession;
  cwd: string;
  themeName: ThemeName;
  pricing?: PriceTable;
  contextWindow?: number;
  /** The runtime's start-up problems: shown as notices, as the app shows them. */
  startupNotices?: readonly string[];
  /** A resumed session: its recorded events (the markdown engine must be loaded) and id. */
  resumedEvents?: readonly AgentEvent[];
  sessionId?: string;
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
}

export interface EarlyFrame {
  /** The frame text on screen, for the app's frame writer to diff against. */
  frame: string;
  /** The app takes the terminal over: the early frame's restore-on-exit handlers are removed. */
  handOver(): void;
  /** Start-up failed after the frame: the terminal is put back as it was, so a message printed next is seen. */
  abandon(): void;
}

/** Events folded for the early frame of a resumed session: whole turns, enough for a screenful. */
export const EARLY_TAIL_EVENTS = 2000;

/** The recorded events from the first prompt within the last EARLY_TAIL_EVENTS (all of them when fewer). */
export function lastTurns(events: readonly AgentEvent[]): readonly AgentEvent[] {
  if (events.length <= EARLY_TAIL_EVENTS) return events;
  for (let i = events.length - EARLY_TAIL_EVENTS; i < events.length; i++) if (events[i]?.type === 'user_prompt') return events.slice(i);
  return events;
}

/** The lines of the first frame: header, empty transcript, prompt box, status row (rows - 1 tall). */
export function earlyFrameLines(options: Omit<EarlyFrameOptions, 'stdout' | 'stdin'>, columns: number, rows: number): string[] {
  const { session } = options;
  const now = options.now ?? Date.now;
  const width = Math.max(10, columns);
  const theme = createTheme(options.themeName, options.env ?? process.env);
  let state = initialState({
    model: session.model,
    provider: session.provider,
    mode: session.mode,
    cwd: options.cwd,
    themeName: options.themeName,
    ...(options.pricing ? { pricing: options.pricing } : {}),
    ...(options.contextWindow ? { contextLimit: options.contextWindow } : {}),
  });
  const start: AgentEvent = { type: 'session_start', provider: session.provider, model: session.model, cwd: options.cwd, permission_mode: session.mode, tools: [], offline: session.offline };
  state = reduce(state, { type: 'event', event: start, at: now() });
  const opening = { offline: session.offline, ...(session.messageCount !== undefined ? { messageCount: session.messageCount } : {}) };
  for (const action of openingActions({ ...options, ...(options.resumedEvents ? { resumedEvents: lastTurns(options.resumedEvents) } : {}) }, opening, now())) state = reduce(state, action);
  const prompt = promptLines({ state: state.editor, width, focused: true, placeholder: promptPlaceholder(false), busy: false });
  const height = Math.max(1, rows - 1 - 1 - prompt.length - 1);
  // The last items, as few as fill the screen (the app lays out FIRST_WINDOW; the rows in view are the same).
  const itemLines = createItemLines(createMarkdownLines());
  const paneRows = (window: number): { rows: string[]; filled: boolean } => {
    const view = createViewMetrics();
    const rows = new TranscriptPane(itemLines, view, window).frame(state, width, height, now(), 0).rows;
    // Filled without the "earlier items" marker line above them, or everything is laid out.
    return { rows, filled: view.total - 1 >= height || window >= FIRST_WINDOW || window >= state.items.length };
  };
  let window = 8;
  let pane = paneRows(window);
  while (!pane.filled) pane = paneRows((window = Math.min(window * 2, FIRST_WINDOW)));
  const transcript = pane.rows;
  return [headerText(state.info, theme, width), ...transcript, ...prompt, statusBarText(selectStatus(state), theme, width, now())];
}

/**
 * Draws the first frame and returns it; undefined (nothing drawn) where the app's own first
 * frame would differ: a terminal too small for the header.
 */
export async function drawEarlyFrame(options: EarlyFrameOptions): Promise<EarlyFrame | undefined> {
  const { stdout, stdin } = options;
  const columns = stdout.columns || 80;
  const rows = stdout.rows || 24;
  if (rows < HEADER_MIN_ROWS || !stdin.isTTY) return undefined;
  let frame: string;
  try {
    frame = earlyFrameLines(options, columns, rows).join('\n');
  } catch (error) {
    // Text beyond what is measured without string-width (a wide folder name, a notice quoting emoji).
    if (!(error instanceof TextWidthNotLoaded)) throw error;
    await loadTextWidth();
    frame = earlyFrameLines(options, columns, rows).join('\n');
  }
  // Until the app takes over, leaving (an error, a signal) puts the terminal back as it was.
  const restore = (): void => {
    stdout.write(LEAVE_SCREEN);
    stdin.setRawMode(false);
  };
  // Every signal the app itself treats as the end (SIGQUIT too, whose default action left the
  // alternate screen on).
  const exitSignals = Object.keys(EXIT_SIGNALS) as ExitSignal[];
  const onSignal = (signal: NodeJS.Signals): void => {
    restore();
    process.exit(EXIT_SIGNALS[signal as ExitSignal]);
  };
  stdin.setRawMode(true);
  stdout.write(ENTER_SCREEN);
  const writer = createFrameWriter({ out: stdout, columns, rows });
  writer.writeFrame(frame);
  writer.showCursorAt(findCaret(frame), true);
  process.once('exit', restore);
  for (const signal of exitSignals) process.once(signal, onSignal);
  const handOver = (): void => {
    process.off('exit', restore);
    for (const signal of exitSignals) process.off(signal, onSignal);
  };
  return {
    frame,
    handOver,
    abandon() {
      handOver();
      restore();
    },
  };
}
