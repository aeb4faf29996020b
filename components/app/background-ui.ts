import type { AgentDefinition } from '../../src/agents/agent-definition.js';
import { loadAgentDefinitions, type AgentLoadProblem } from '../../src/agents/agent-definition-loader.js';
import { claudeHomeFrom } from '../../src/settings/settings-layers.js';
import type { AgentEvent } from '../../src/events.js';
import type { BackgroundWork } from '../../src/runtime/background-work.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import type { TodoList } from '../../src/todos/todo-list.js';
import type { CommandSandbox } from '../../src/sandbox/sandbox.js';
import { backgroundCommands } from '../commands/background-commands.js';
import { sandboxCommand } from '../commands/sandbox-command.js';
import type { SlashCommand } from '../commands/registry.js';
import type { TuiStore } from '../store/create-store.js';

export interface BackgroundUiOptions {
  /** The runtime's cron scheduler and background shells (the status bar counts, /cron, /bashes). */
  background?: Pick<BackgroundWork, 'cron' | 'shells'> & Partial<Pick<BackgroundWork, 'agents' | 'watches'>>;
  /** The session's todo list, restored on resume: the checklist starts from it. */
  todos?: Pick<TodoList, 'todos'>;
  /** Starts the cron scheduler; called once the store listens, so missed-run notices reach the screen. */
  startBackground?: () => void;
  /** The bash sandbox, for /sandbox. */
  sandbox?: CommandSandbox;
  /** The agent types the runtime loaded at start (the ones the agent tool offers), for /agents. */
  agents?: { agents: readonly AgentDefinition[]; problems: readonly AgentLoadProblem[] };
}

/** Whether an event can change the number of scheduled tasks or running shells. */
function touchesBackground(event: AgentEvent): boolean {
  if (event.type === 'subagent') return touchesBackground(event.event);
  return event.type === 'cron' || event.type === 'background_shell' || event.type === 'terminal';
}

/**
 * Connects the store to work outside a turn: seeds the todo list, keeps the status bar's counts
 * current, starts the scheduler, and builds /cron, /bashes, /agents and /todos.
 */
export function startBackgroundUi(input: { store: TuiStore; session: AgentSession; cwd: string; cairnHome: string; options: BackgroundUiOptions }): {
  commands: SlashCommand[];
  dispose(): void;
} {
  const { store, session, options } = input;
  // A replayed transcript's toasts are old news.
  store.flushNow();
  store.dispatch({ type: 'toastExpire', now: Infinity });
  const todos = options.todos?.todos ?? [];
  if (todos.length > 0) store.dispatch({ type: 'event', event: { type: 'todos', todos: [...todos] }, at: Date.now() });
  const background = options.background;
  const refresh = (): void => {
    if (!background) return;
    const shells = background.shells.list().filter((s) => s.status === 'running').length;
    store.dispatch({ type: 'background', cron: background.cron.list().length, shells });
  };
  // Without the runtime's list, the same folders start-up reads (~/.claude/agents included).
  const agents = async () => options.agents ?? loadAgentDefinitions(input.cairnHome, input.cwd, claudeHomeFrom(process.env));
  const off = background ? session.subscribe((event) => touchesBackground(event) && refresh()) : () => undefined;
  options.startBackground?.();
  refresh();
  return {
    commands: [
      ...backgroundCommands({ ...(background ? { background } : {}), agents }),
      sandboxCommand(options.sandbox),
    ],
    dispose: off,
  };
}
