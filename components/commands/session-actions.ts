import type { PromptSection } from '../../src/context/system-prompt.js';
import type { MemoryScope } from '../../src/context/long-term-memory.js';
import { saveMemory } from '../../src/context/long-term-memory.js';
import type { SessionSummary } from '../../src/session/session-list.js';
import { listSessions, matchSession } from '../../src/session/session-list.js';
import { loadSession } from '../../src/session/session-loader.js';
import { nameOf, nameSession, readSessionNames } from '../../src/session/session-names.js';
import { errorMessage } from '../../src/util/error-message.js';

/** What the TUI may do with sessions and memory beyond the one conversation it shows. */
export interface SessionActions {
  readonly cairnHome: string;
  readonly cwd: string;
  /** The session on screen, marked in the picker. */
  readonly currentId?: string;
  saveMemory(scope: MemoryScope, text: string): Promise<{ file: string; entry: string }>;
  listSessions(): Promise<SessionSummary[]>;
  /**
   * Leaves this session for another. Resolves to a message when it cannot (unknown id, the
   * file unreadable, switching not wired); on success the app is already on its way out.
   */
  switchTo(id: string): Promise<string | undefined>;
  /** The name the session on screen has (/rename, -n), if any. */
  currentName(): Promise<string | undefined>;
  /** /fork: leaves this session for a new one that starts from its history; this one stays as it is. */
  forkCurrent(): string | undefined;
  /** Names the session on screen (/save NAME): the name it now has, or why not. */
  nameCurrent(name: string): Promise<{ name: string; previous?: string } | { problem: string }>;
  /** The system prompt's sections for /context. */
  sections?(): Promise<PromptSection[]>;
}

export interface SessionActionsOptions {
  cairnHome: string;
  cwd: string;
  currentId?: string;
  now?: () => Date;
  sections?: () => Promise<PromptSection[]>;
  /** Ends the TUI so the caller can reopen it on the chosen session. */
  onSwitch?: (id: string, how?: { fork: boolean }) => void;
}

export function createSessionActions(options: SessionActionsOptions): SessionActions {
  const { cairnHome, cwd } = options;
  const now = options.now ?? (() => new Date());
  return {
    cairnHome,
    cwd,
    ...(options.currentId !== undefined ? { currentId: options.currentId } : {}),
    saveMemory: (scope, text) => saveMemory(scope, { cairnHome, cwd }, text, now()),
    listSessions: () => listSessions(cairnHome, cwd),
    async currentName() {
      if (options.currentId === undefined) return undefined;
      // A broken names file is said by /rename and /sessions; the header just goes without.
      const names = await readSessionNames(cairnHome, cwd).catch(() => new Map<string, string>());
      return nameOf(names, options.currentId);
    },
    forkCurrent() {
      if (options.currentId === undefined) return 'This session is not saved (it was started without a session file), so there is nothing to fork.';
      if (!options.onSwitch) return `Fork it with: cairn --resume ${options.currentId} --fork-session`;
      options.onSwitch(options.currentId, { fork: true });
      return undefined;
    },
    async nameCurrent(name) {
      if (options.currentId === undefined) return { problem: 'this session is not saved (it was started without a session file), so it cannot be named' };
      return nameSession(cairnHome, cwd, options.currentId, name);
    },
    async switchTo(id) {
      if (id === options.currentId) return 'That is the session you are in.';
      // Ids are long: a name (/save NAME) or a unique prefix (as /sessions prints them) is enough, here as for --resume.
      const match = matchSession(await listSessions(cairnHome, cwd), id);
      if (!('session' in match)) return match.problem === 'none' ? `No session ${id} in this workspace. /sessions lists them.` : `${match.message.charAt(0).toUpperCase()}${match.message.slice(1)}.`;
      const target = match.session;
      if (target.id === options.currentId) return 'That is the session you are in.';
      try {
        // Check it loads before leaving this one: a file from a newer cairn would strand the user.
        await loadSession(target.file);
      } catch (error) {
        return `Cannot resume ${target.id}: ${errorMessage(error)}`;
      }
      if (!options.onSwitch) return `Resume it with: cairn --resume ${target.id}`;
      options.onSwitch(target.id);
      return undefined;
    },
    ...(options.sections ? { sections: options.sections } : {}),
  };
}
