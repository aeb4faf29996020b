import type { NoticeLevel } from '../../src/events.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import type { RunExternalEditor } from '../app/external-editor.js';
import type { TerminalControls } from '../app/terminal-controls.js';
import type { SessionActions } from '../commands/session-actions.js';
import type { PluginActions } from '../commands/plugin-actions.js';
import type { ModelActions } from '../commands/model-actions.js';
import type { ApprovalGuard } from '../keys/approval-guard.js';
import { createApprovalGuard } from '../keys/approval-guard.js';
import type { ViewMetrics } from '../keys/view-metrics.js';
import { createViewMetrics } from '../keys/view-metrics.js';
import type { TuiStore } from '../store/create-store.js';
import type { ThemeName } from '../theme/theme.js';

/**
 * What the app's keys, slash commands and actions act on: the one context the dispatcher and every
 * command receive. Built the same way for the app and for its tests (createAppContext), so a test
 * drives the production wiring rather than a copy of it.
 */
export interface AppContext {
  store: TuiStore;
  session: AgentSession;
  commands: CommandRegistry;
  /** What the transcript last drew: page size and line positions for scrolling and selection. */
  view: ViewMetrics;
  history(): readonly string[];
  /** A prompt was sent (for the history file). */
  onPrompt?(text: string): void;
  /** A notice in the transcript. */
  print(message: string, level?: NoticeLevel): void;
  systemPrompt(): Promise<string>;
  setTheme(name: ThemeName): Promise<void>;
  exit(code?: number): void;
  now(): number;
  /** Memory notes and switching sessions; absent where there is no workspace (some tests). */
  sessions?: SessionActions;
  /** Keeps type-ahead out of approvals. */
  guard: ApprovalGuard;
  /** The clipboard and mouse reporting; absent without a terminal (some tests). */
  terminal?: TerminalControls;
  /** Hands the terminal to the user's editor on a file (components/app/external-editor.ts); absent without a terminal. */
  runExternalEditor?: RunExternalEditor;
  /** /plugin's actions: the list and switching one; absent in tests without plugins. */
  plugins?: PluginActions;
  /** /model's picker: the providers' models and saving the default; absent in tests without a CAIRN_HOME. */
  models?: ModelActions;
  /** Files being made into attachments (a dropped path, Ctrl+V) whose chips are not in the draft yet: Enter waits for them. */
  readonly attaching: Set<string>;
}

/** A slash command: what it is called, and what it does with the app. */
export interface SlashCommand {
  name: string;
  aliases?: readonly string[];
  description: string;
  /** Shown after the name in the palette, e.g. "<mode>"; `[x]` is optional, `<x>` required. */
  argHint?: string;
  run(args: string, ctx: AppContext): void | Promise<void>;
}

export interface CommandRegistry {
  all(): readonly SlashCommand[];
  find(name: string): SlashCommand | undefined;
  register(command: SlashCommand): void;
  /** Commands whose name (or alias) starts with the typed prefix, best first. */
  filter(prefix: string): SlashCommand[];
  closest(name: string): SlashCommand | undefined;
}

export interface AppContextOptions {
  store: TuiStore;
  session: AgentSession;
  commands: CommandRegistry;
  systemPrompt(): Promise<string>;
  setTheme(name: ThemeName): Promise<void>;
  exit(code: number): void;
  history(): readonly string[];
  onPrompt?(text: string): void;
  /** The clock the approval guard and Ctrl+C's double press read. */
  now(): number;
  sessions?: SessionActions;
  /** The user's editor on a file (/memory, Ctrl+G). */
  runExternalEditor?: RunExternalEditor;
  plugins?: PluginActions;
  models?: ModelActions;
}

export function createAppContext(opts: AppContextOptions): AppContext {
  const { store } = opts;
  return {
    store,
    session: opts.session,
    commands: opts.commands,
    view: createViewMetrics(),
    history: opts.history,
    ...(opts.onPrompt ? { onPrompt: opts.onPrompt } : {}),
    print: (message, level = 'info') => store.dispatch({ type: 'notice', level, message }),
    systemPrompt: opts.systemPrompt,
    setTheme: opts.setTheme,
    exit: (code = 0) => opts.exit(code),
    now: opts.now,
    ...(opts.sessions ? { sessions: opts.sessions } : {}),
    ...(opts.plugins ? { plugins: opts.plugins } : {}),
    ...(opts.models ? { models: opts.models } : {}),
    guard: createApprovalGuard(store, opts.now),
    attaching: new Set(),
    ...(opts.runExternalEditor ? { runExternalEditor: opts.runExternalEditor } : {}),
  };
}
