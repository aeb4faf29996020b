import type { AgentSession } from '../../src/session/agent-session.js';
import type { CommandContext, CommandRegistry } from '../commands/registry.js';
import type { SessionActions } from '../commands/session-actions.js';
import type { TuiStore } from '../store/create-store.js';
import type { ThemeName } from '../theme/theme.js';
import type { RunExternalEditor } from '../app/external-editor.js';
import { createApprovalGuard } from './approval-guard.js';
import type { KeyDeps } from './dispatch.js';
import { createViewMetrics } from './view-metrics.js';

export interface KeyWiringOptions {
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
  /** The user's editor on a file (/memory; Ctrl+G to come): commands reach it as commandContext.runExternalEditor. */
  runExternalEditor?: RunExternalEditor;
}

/**
 * What keys and slash commands act on, built the same way for the app and for its tests, so a
 * test drives the production wiring rather than a copy of it.
 */
export function createKeyDeps(opts: KeyWiringOptions): KeyDeps {
  const { store, session, commands } = opts;
  const commandContext: CommandContext = {
    session,
    store,
    commands,
    print: (message, level = 'info') => store.dispatch({ type: 'notice', level, message }),
    systemPrompt: opts.systemPrompt,
    setTheme: opts.setTheme,
    exit: (code = 0) => opts.exit(code),
    ...(opts.runExternalEditor ? { runExternalEditor: opts.runExternalEditor } : {}),
  };
  return {
    store,
    session,
    commands,
    commandContext,
    view: createViewMetrics(),
    history: opts.history,
    ...(opts.onPrompt ? { onPrompt: opts.onPrompt } : {}),
    exit: opts.exit,
    now: opts.now,
    ...(opts.sessions ? { sessions: opts.sessions } : {}),
    guard: createApprovalGuard(store, opts.now),
  };
}
