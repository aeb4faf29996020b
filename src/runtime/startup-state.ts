import { randomUUID } from 'node:crypto';
import { loadAgentDefinitions, type AgentLoadProblem } from '../agents/agent-definition-loader.js';
import type { AgentDefinition } from '../agents/agent-definition.js';
import type { LoadedSession } from '../session/session-loader.js';
import { claudeHomeFrom } from '../settings/settings-layers.js';
import { TodoList } from '../todos/todo-list.js';
import { findSessionToResume } from './resume.js';

export interface StartupState {
  /** The session file being continued, when one is. */
  resumeFile?: string;
  resumed?: LoadedSession;
  sessionId: string;
  agents: AgentDefinition[];
  /** Definition files that were skipped (also in the notices): /agents names them. */
  agentProblems: AgentLoadProblem[];
  /** The todo list, as the resumed session left it. */
  todos: TodoList;
}

/** The agent definitions (the agent tool's types); a skipped file or a warning is added to `notices`. */
export async function loadAgents(
  opts: { cwd: string; cairnHome: string; env?: NodeJS.ProcessEnv },
  notices: string[],
): Promise<{ agents: AgentDefinition[]; problems: AgentLoadProblem[] }> {
  const { agents, problems } = await loadAgentDefinitions(opts.cairnHome, opts.cwd, opts.env ? claudeHomeFrom(opts.env) : undefined);
  for (const p of problems) notices.push(`Skipped agent definition ${p.file}: ${p.message}`);
  for (const a of agents) for (const w of a.warnings ?? []) notices.push(`Agent definition ${a.source}: ${w}`);
  return { agents, problems };
}

/**
 * What a session starts from: the session it continues (if any), its id, the agent definitions
 * (unless `skipAgents`: the caller runs loadAgents later) and the todo list. Problems that leave
 * cairn usable (a repaired session line, a bad agent file, no session to continue) are added to
 * `notices`.
 */
export async function loadStartupState(
  opts: { cwd: string; cairnHome: string; env?: NodeJS.ProcessEnv; resumeId?: string; continueLatest?: boolean; skipAgents?: boolean },
  notices: string[],
): Promise<StartupState> {
  const resume = await findSessionToResume(opts);
  if (resume.file === undefined && resume.note) notices.push(resume.note);
  const resumed = resume.file !== undefined ? resume.loaded : undefined;
  if (resumed) notices.push(...resumed.warnings);

  const { agents, problems } = opts.skipAgents ? { agents: [], problems: [] } : await loadAgents(opts, notices);

  const todos = new TodoList();
  const lastTodos = resumed?.events.findLast((e) => e.type === 'todos');
  if (lastTodos?.type === 'todos') todos.replace(lastTodos.todos);

  return {
    ...(resume.file !== undefined ? { resumeFile: resume.file } : {}),
    ...(resumed ? { resumed } : {}),
    sessionId: resumed?.header.id ?? randomUUID(),
    agents,
    agentProblems: problems,
    todos,
  };
}
