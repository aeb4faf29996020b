import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { sessionFile } from '../session/session-paths.js';
import { loadAgentDefinitions, type AgentLoadProblem } from '../agents/agent-definition-loader.js';
import type { AgentDefinition } from '../agents/agent-definition.js';
import { withFlagAgents } from '../agents/flag-agents.js';
import type { LoadedSession } from '../session/session-loader.js';
import { claudeHomeFrom } from '../settings/settings-layers.js';
import { activePlugins } from '../plugins/active-plugins.js';
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
  /** --fork-session: the id of the session whose history this one starts from. */
  forkedFrom?: string;
}

/** --session-id names a new session: one that exists already is continued with --resume, never overwritten. */
async function refuseTakenId(cairnHome: string, cwd: string, id: string): Promise<void> {
  try {
    await fs.access(sessionFile(cairnHome, cwd, id));
  } catch {
    return;
  }
  throw new Error(`--session-id: a session with the id ${id} exists already; continue it with --resume ${id}`);
}

/** The agent definitions (the agent tool's types); a skipped file or a warning is added to `notices`. */
export async function loadAgents(
  opts: { cwd: string; cairnHome: string; env?: NodeJS.ProcessEnv; agents?: readonly AgentDefinition[]; trusted?: boolean; bare?: boolean },
  notices: string[],
): Promise<{ agents: AgentDefinition[]; problems: AgentLoadProblem[] }> {
  const plugins = opts.env ? (await activePlugins({ cwd: opts.cwd, cairnHome: opts.cairnHome, env: opts.env, trusted: opts.trusted ?? false })).plugins : [];
  const pluginDirs = plugins.map((p) => ({ plugin: p.name, dirs: p.agentPaths }));
  const loaded = await loadAgentDefinitions(opts.cairnHome, opts.cwd, opts.env ? claudeHomeFrom(opts.env) : undefined, pluginDirs, { bare: opts.bare === true });
  const { problems } = loaded;
  for (const p of problems) notices.push(`Skipped agent definition ${p.file}: ${p.message}`);
  for (const a of loaded.agents) for (const w of a.warnings ?? []) notices.push(`Agent definition ${a.source}: ${w}`);
  // --agents: this session's own definitions, over the files' of the same name.
  return { agents: withFlagAgents(loaded.agents, opts.agents), problems };
}

/**
 * What a session starts from: the session it continues (if any), its id, the agent definitions
 * (unless `skipAgents`: the caller runs loadAgents later) and the todo list. Problems that leave
 * cairn usable (a repaired session line, a bad agent file, no session to continue) are added to
 * `notices`.
 */
export async function loadStartupState(
  opts: { cwd: string; cairnHome: string; env?: NodeJS.ProcessEnv; resumeId?: string; continueLatest?: boolean; skipAgents?: boolean; sessionId?: string; forkSession?: boolean },
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

  // A fork starts from the old history under a new id and file; the old session is left as it was.
  const fork = resumed !== undefined && opts.forkSession === true;
  const sessionId = (fork ? undefined : resumed?.header.id) ?? opts.sessionId ?? randomUUID();
  if (!resumed || fork) await refuseTakenId(opts.cairnHome, opts.cwd, sessionId);
  return {
    ...(resume.file !== undefined && !fork ? { resumeFile: resume.file } : {}),
    ...(resumed ? { resumed } : {}),
    ...(fork ? { forkedFrom: resumed.header.id } : {}),
    sessionId,
    agents,
    agentProblems: problems,
    todos,
  };
}
