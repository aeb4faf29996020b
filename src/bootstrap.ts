// Start-up in four phases, each a plain function returning a record: settle the facts (trust,
// settings, provider: runtime/session-facts.ts), build the services (runtime/startup-services.ts),
// open the session (runtime/open-session.ts), finish start-up (runtime/finish-startup.ts). The TUI
// shows the session after phase 3 and finishes after its first frame; every other caller is the
// same path with `await finishStartup()` before it returns.
import type { PromptSection } from './context/system-prompt.js';
import type { SystemPromptSource } from './context/system-prompt-source.js';
import { notice } from './events.js';
import type { AgentDefinition } from './agents/agent-definition.js';
import type { AgentLoadProblem } from './agents/agent-definition-loader.js';
import type { PriceTable } from './pricing.js';
import { startArchival } from './runtime/archive-at-start.js';
import type { BackgroundWork } from './runtime/background-work.js';
import { finishStartup as finishPhase } from './runtime/finish-startup.js';
import { hookLine, type SessionHooks } from './runtime/hook-wiring.js';
import { openSession } from './runtime/open-session.js';
import type { RuntimeOptions } from './runtime/runtime-options.js';
import { settleSessionFacts } from './runtime/session-facts.js';
import { buildServices } from './runtime/startup-services.js';
import type { CheckpointRecorder } from './session/checkpoint-tools.js';
import type { McpManager } from './mcp/mcp-manager.js';
import { mcpStartupProblems } from './mcp/mcp-setup.js';
import type { CommandSandbox } from './sandbox/sandbox.js';
import type { SkillRuntime } from './skills/skill-runtime.js';
import type { AgentSession } from './session/agent-session.js';
import type { LoadedSession } from './session/session-loader.js';
import type { TodoList } from './todos/todo-list.js';
import type { TaskStore } from './tasks/task-store.js';
import type { MessageBus } from './team/message-bus.js';
import type { Team } from './team/team.js';
import { cairnHomeFrom } from './util/cairn-home.js';

export type { RuntimeOptions };

export interface Runtime {
  session: AgentSession;
  cwd: string;
  cairnHome: string;
  /** Where the provider choice came from. */
  providerSource: string;
  systemPrompt(): Promise<string>;
  systemPromptSections(): Promise<PromptSection[]>;
  settingsSources: string[];
  sessionId: string;
  contextWindow: number;
  /** Prices for the cost estimate (built-in, with config.json's `pricing` over them). */
  pricing: PriceTable;
  sessionFile?: string;
  /** Set when a session was resumed: its events re-render the transcript. */
  resumed?: LoadedSession;
  /** --fork-session, /fork: the id of the session this one starts from (left unchanged). */
  forkedFrom?: string;
  /** Things to tell the user at start (no session to continue, repaired lines, bad agent files). */
  startupNotices: string[];
  todos: TodoList;
  background: BackgroundWork;
  team: Team;
  bus: MessageBus;
  tasks: TaskStore;
  /** The bash sandbox (/sandbox shows and switches it). */
  sandbox: CommandSandbox;
  /** Skills and custom commands (/name), with the problems found loading them. With deferStartup, read it only once skillsLoaded has resolved. */
  readonly skills: SkillRuntime;
  /** The same, once loaded (at once without deferStartup). */
  skillsLoaded: Promise<SkillRuntime>;
  /** The hooks in force (/hooks lists and switches them). */
  hooks: SessionHooks;
  /** The agent types loaded at start and the definition files skipped (/agents); undefined until finishStartup has loaded them. */
  readonly agentTypes: { agents: readonly AgentDefinition[]; problems: readonly AgentLoadProblem[] } | undefined;
  /** The instruction files in the context and the problems met reading them (/memory). */
  instructions: Pick<SystemPromptSource, 'loadedFiles' | 'problems' | 'bare'>;
  /** The MCP servers (/mcp), absent when none is configured. */
  mcp?: McpManager;
  /** Checkpoints of the tools' file changes (/rewind), absent when the session is not saved. */
  checkpoints?: CheckpointRecorder;
  /** Starts the cron scheduler and the MCP servers (interactive sessions only; with deferStartup, once start-up has finished). */
  startBackground(): void;
  /** Sets up what deferStartup left for later (once; later calls get the same promise). Done already without deferStartup. */
  finishStartup(): Promise<void>;
  /** Runs the SessionEnd hooks (at most 1.5 s; once); returns what they said, one line each. Call before close(). */
  endSession(reason: 'prompt_input_exit' | 'resume' | 'clear' | 'other'): Promise<string[]>;
  close(): void;
}

export { cairnHomeFrom };

/**
 * Builds everything a session needs from flags, environment and settings files.
 * Throws errors naming the file, field or flag at fault: cairn refuses to start half-configured.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  // Trust first: the folder's own settings widen nothing (allow rules, env...) until it is trusted.
  const facts = options.facts ?? (await settleSessionFacts(options));
  const services = await buildServices(options, facts);
  const { cwd, cairnHome, notices, background, mcp, hooks, disposals } = services;
  const deferred = options.deferStartup === true;
  // What start-up finds is a start-up notice when the caller waits for it, a warning in the session after the first frame.
  const tell = (line: string): void => {
    if (deferred && services.ref.session) services.ref.session.emit(notice('warning', line));
    else notices.push(line);
  };
  let started = false;
  let backgroundWanted = false;
  let backgroundStarted = false;
  const startBackgroundNow = (): void => {
    // Start-up may finish after the runtime was closed (the TUI left early): nothing starts then.
    if (backgroundStarted || disposals.isDisposed) return;
    backgroundStarted = true;
    background.start();
    mcp?.start();
    startArchival(services, opened.session);
  };
  const opened = openSession(services, async (open) => {
    await finishPhase(services, open, tell);
    started = true;
    if (backgroundWanted) startBackgroundNow();
  });
  const { session, team, writer, system } = opened;
  const finishStartup = (): Promise<void> => session.finishStartup();
  if (!deferred) await finishStartup();

  // Headless: the one prompt may need the servers' tools, so wait for them (MCP_TIMEOUT bounds it).
  if (mcp && !options.interactive) {
    mcp.start();
    await mcp.ready();
    notices.push(...mcpStartupProblems(mcp.statuses()));
    // A headless run is one prompt; its servers must not keep the process alive after it.
    session.subscribe((event) => {
      if (event.type === 'terminal') void mcp.close();
    });
  }
  const { resumed } = services.start;
  return {
    session,
    cwd,
    cairnHome,
    providerSource: services.resolved.source,
    settingsSources: services.sources,
    sessionId: services.start.sessionId,
    contextWindow: services.resolved.contextWindow,
    pricing: facts.sessionConfig.pricing,
    ...(writer ? { sessionFile: writer.file } : {}),
    ...(resumed ? { resumed } : {}),
    ...(services.start.forkedFrom !== undefined ? { forkedFrom: services.start.forkedFrom } : {}),
    ...(services.checkpoints ? { checkpoints: services.checkpoints } : {}),
    startupNotices: notices,
    todos: services.start.todos,
    background,
    team,
    bus: services.bus,
    tasks: services.tasks,
    sandbox: services.sandbox,
    get skills() {
      if (!services.skills.current) throw new Error('the skills are not loaded yet (finishStartup)');
      return services.skills.current;
    },
    skillsLoaded: services.skills.loaded,
    hooks,
    get agentTypes() {
      const { list, problems, loaded } = services.agents;
      return loaded ? { agents: list, problems } : undefined;
    },
    instructions: services.promptSource,
    ...(mcp ? { mcp } : {}),
    startBackground() {
      backgroundWanted = true;
      if (started) startBackgroundNow();
    },
    finishStartup,
    // With deferStartup, /prompt and /context wait for the tools the prompt names.
    systemPrompt: async () => {
      await finishStartup();
      return system({ mode: session.mode, model: session.model });
    },
    systemPromptSections: async () => {
      await finishStartup();
      return (await services.promptSource.build({ mode: session.mode, model: session.model })).sections;
    },
    endSession: async (reason) => {
      const said: string[] = [];
      await hooks.end(reason, (e) => said.push(hookLine(e)));
      return said;
    },
    close: () => disposals.dispose(),
  };
}
