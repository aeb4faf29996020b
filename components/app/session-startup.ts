import type { PromptSection } from '../../src/context/system-prompt.js';
import type { AgentEvent } from '../../src/events.js';
import { openingActions } from './startup-notices.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import type { SlashCommand } from '../commands/registry.js';
import type { SessionActions } from '../commands/session-actions.js';
import { createSessionActions } from '../commands/session-actions.js';
import { exportCommand } from '../commands/export-command.js';
import { saveLoadCommands } from '../commands/save-load-commands.js';
import { sectionsCommand } from '../commands/sections-command.js';
import { openResumePicker, sessionCommands } from '../commands/session-commands.js';
import type { TuiStore } from '../store/create-store.js';

/** The runtime's session facts the TUI shows: what was resumed, what to tell the user, the window. */
export interface TuiSessionOptions {
  sessionId?: string;
  /** The model's context window in tokens (the status bar's and /context's limit). */
  contextWindow?: number;
  startupNotices?: readonly string[];
  /** A resumed session's recorded events: the transcript as it was. */
  resumedEvents?: readonly AgentEvent[];
  /** /fork, --fork-session: the session this one was copied from. */
  forkedFrom?: string;
  sections?: () => Promise<PromptSection[]>;
  /** `cairn --resume` without an id: the picker opens before anything else. */
  pickOnStart?: boolean;
  /** The user picked another session (or /fork: a copy of this one); runTui ends right after so the caller can open it. */
  onSwitch?: (id: string, how?: { fork: boolean }) => void;
}

export { OFFLINE_NOTICE } from './startup-notices.js';

/** Puts a recorded session into the store in one batch: one notify, no bell, no animation per event. */
export function loadTranscript(store: TuiStore, events: readonly AgentEvent[]): void {
  store.dispatch({ type: 'recorded', events, at: Date.now() });
}

export interface SessionUi {
  actions: SessionActions;
  commands: SlashCommand[];
}

/** Fills the store before the first frame (resumed transcript, startup notices) and builds the session commands. */
export async function startSessionUi(input: {
  store: TuiStore;
  session: AgentSession;
  cwd: string;
  cairnHome: string;
  options?: TuiSessionOptions;
  /** Ends the TUI (after onSwitch). */
  exit: () => void;
}): Promise<SessionUi> {
  const { store, session, options = {} } = input;
  const onSwitch = options.onSwitch;
  const actions = createSessionActions({
    cairnHome: input.cairnHome,
    cwd: input.cwd,
    ...(options.sessionId !== undefined ? { currentId: options.sessionId } : {}),
    ...(options.sections ? { sections: options.sections } : {}),
    ...(onSwitch
      ? {
          onSwitch: (id: string, how?: { fork: boolean }) => {
            onSwitch(id, how);
            input.exit();
          },
        }
      : {}),
  });
  for (const action of openingActions({ resumedEvents: options.resumedEvents, sessionId: options.sessionId, startupNotices: options.startupNotices, forkedFrom: options.forkedFrom }, { offline: session.provider.offline === true, messageCount: session.messages.length }, Date.now())) store.dispatch(action);
  // A named session (/rename, -n) shows its name in the header and the terminal title.
  const name = await actions.currentName();
  if (name !== undefined) store.dispatch({ type: 'sessionName', name });
  if (options.pickOnStart) await openResumePicker(store, actions);
  return { actions, commands: [...sessionCommands(actions), sectionsCommand(actions), ...saveLoadCommands(actions), exportCommand(actions)] };
}
