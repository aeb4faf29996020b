import os from 'node:os';
import { clockFromEnv } from './clock.js';
import { writeEpisodicNote } from './context/compact.js';
import type { PromptSection } from './context/system-prompt.js';
import { createSystemPromptSource } from './context/system-prompt-source.js';
import { withFolderInstructions } from './context/folder-instructions-tools.js';
import { claudeHomeFrom } from './settings/settings-layers.js';
import { cairnHomeFrom } from './util/cairn-home.js';
import type { PermissionMode } from './events.js';
import { notice } from './events.js';
import { unknownToolWarnings } from './permissions/unknown-tools.js';
import { agentToolNotices } from './agents/agent-tool-grants.js';
import type { AgentDefinition } from './agents/agent-definition.js';
import type { AgentLoadProblem } from './agents/agent-definition-loader.js';
import type { SystemPromptSource } from './context/system-prompt-source.js';
import type { PriceTable } from './pricing.js';
import { createBackgroundWork, type BackgroundWork } from './runtime/background-work.js';
import { permissionsForMode, permissionsFromSettings } from './runtime/permissions-from-options.js';
import { settleSessionFacts, type SessionFacts } from './runtime/session-facts.js';
import type { AskTrust } from './runtime/workspace-settings.js';
import { compactThreshold, setUpProvider } from './runtime/provider-setup.js';
import { connectScheduledRuns, followSession, leadMail, recordSession } from './runtime/session-wiring.js';
import { loadAgents, loadStartupState } from './runtime/startup-state.js';
import { setUpCheckpoints } from './runtime/checkpoint-setup.js';
import type { CheckpointRecorder } from './session/checkpoint-tools.js';
import type { McpManager } from './mcp/mcp-manager.js';
import { mcpServersEvent, mcpStartupProblems, setUpMcp } from './mcp/mcp-setup.js';
import type { CommandSandbox } from './sandbox/sandbox.js';
import { setUpSandbox } from './sandbox/sandbox-startup.js';
import { hookLine, setUpHooks, type SessionHooks } from './runtime/hook-wiring.js';
import { loadSkillRuntime, type SkillRuntime } from './skills/skill-runtime.js';
import { AgentSession } from './session/agent-session.js';
import { StartingSession } from './session/starting-session.js';
import type { AnyTool } from './tools/tool.js';
import type { LoadedSession } from './session/session-loader.js';
import type { TodoList } from './todos/todo-list.js';
import { createTaskStore, type TaskStore } from './tasks/task-store.js';
import { createMessageBus, type MessageBus } from './team/message-bus.js';
import { createTeam, LEAD, type Team } from './team/team.js';

export interface RuntimeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  interactive: boolean;
  provider?: string;
  model?: string;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  now?: () => Date;
  /** Resume the newest session of this workspace (-c). */
  continueLatest?: boolean;
  /** Resume this session id (--resume ID). */
  resumeId?: string;
  /** Write the session file (default true). */
  persist?: boolean;
  /** --sandbox (true) / --no-sandbox (false): overrides sandbox.enabled. */
  sandbox?: boolean;
  /** Asks whether to trust the folder when its settings would widen something (the TUI); absent: never asked. */
  askTrust?: AskTrust;
  /** --mcp-config values: files or JSON objects naming MCP servers. */
  mcpConfig?: string[];
  /**
   * The TUI: what its first frame does not show waits for finishStartup() (the TUI calls it just
   * after that frame; the first turn does if nobody has): the tools, the agent definitions,
   * SessionStart hooks, the cron scheduler and the MCP servers. Their notices then reach the
   * session as warnings instead of `startupNotices`. A turn waits for all of it.
   */
  deferStartup?: boolean;
  /** Settled already (the TUI draws its first frame from them first); the options they came from are not read again. */
  facts?: SessionFacts;
}

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
  instructions: Pick<SystemPromptSource, 'loadedFiles' | 'problems'>;
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
  const { cwd, cairnHome } = facts;
  const folder = { claudeHome: facts.claudeHome, trusted: facts.trusted };
  const now = options.now ?? (() => new Date());
  const { permissions, sources, origins } = permissionsFromSettings({ ...options, cwd, cairnHome, mode: facts.mode }, facts.settings);
  const { resolved, provider, providerFor } = setUpProvider({ ...options, cairnHome, resolved: facts.resolved });
  const sessionConfig = facts.sessionConfig;

  // Problems that leave cairn usable: told to the user at start (TUI notices, stderr headless).
  const startupNotices: string[] = [...facts.notices];
  const deferred = options.deferStartup === true;
  // What is found after start-up (deferStartup) is told to the session, as a start-up notice would have been.
  const later = (message: string): void => {
    if (session) session.emit(notice('warning', message));
    else startupNotices.push(message);
  };
  const start = await loadStartupState({ ...options, cwd, cairnHome, skipAgents: deferred }, startupNotices);
  const { resumed, sessionId, todos } = start;
  let agents = start.agents;
  let agentProblems = start.agentProblems;
  let agentsLoaded = !deferred;
  const { sandbox, notices: sandboxNotices } = await setUpSandbox({ cwd, cairnHome, env: options.env, ...(options.sandbox !== undefined ? { flag: options.sandbox } : {}), session: () => session });
  startupNotices.push(...sandboxNotices);
  // Read deny rules hold inside the sandbox as the kernel's: what they cover is hidden from every sandboxed command.
  sandbox.hideReadDenied(async () => (await permissions.readDeniedPlaces?.()) ?? []);
  let session: AgentSession | undefined;
  // Hooks from every settings file and .hooks.json; the folder's own run only once it is trusted.
  const hooks = await setUpHooks({ cwd, cairnHome, claudeHome: folder.claudeHome, env: options.env, trusted: () => folder.trusted, sessionId, transcriptPath: () => writer?.file, permissionMode: () => session?.mode ?? 'default' });
  startupNotices.push(...hooks.set.problems());
  // SessionStart's text waits for the first prompt (hook-wiring), which waits for start-up.
  const sessionStartHooks = (tell: (line: string) => void): Promise<void> =>
    hooks.start(resumed ? 'resume' : 'startup', (e) => tell(e.type === 'hook' ? `${e.hook_event} hook ${e.outcome}: ${e.text} (${e.source})` : e.type === 'notice' ? e.message : e.type));
  if (!deferred) await sessionStartHooks((line) => startupNotices.push(line));
  // Skills and custom commands (frontmatter in YAML: ~20 ms to read the shipped ones cold).
  let skills: SkillRuntime | undefined;
  let skillsFound: (loaded: SkillRuntime) => void = () => undefined;
  const skillsLoaded = new Promise<SkillRuntime>((resolve) => (skillsFound = resolve));
  const loadSkills = async (tell: (line: string) => void): Promise<SkillRuntime> => {
    const loaded = await loadSkillRuntime({ cwd, cairnHome, env: options.env, permissions, trusted: folder.trusted, sandbox });
    for (const line of loaded.problems) tell(line);
    skills = loaded;
    skillsFound(loaded);
    return loaded;
  };
  if (!deferred) await loadSkills((line) => startupNotices.push(line));
  const background = createBackgroundWork({ cwd, cairnHome, clock: clockFromEnv(options.env), todos, env: options.env });

  let team: Team | undefined;
  const currentProvider = () => session?.provider ?? provider;
  // A file cairn cannot read or use, met after start-up: a warning in the transcript, naming it.
  const reportProblem = (message: string): void => {
    if (session) session.emit(notice('warning', message));
    else startupNotices.push(message);
  };
  const bus = createMessageBus(cwd, now, reportProblem);
  const tasks = createTaskStore(cwd, now, reportProblem);
  const checkpoints = await setUpCheckpoints({ cairnHome, cwd, sessionId, persist: options.persist !== false, onProblem: reportProblem, ...(start.resumeFile ? { resumeFile: start.resumeFile } : {}) });
  const environment = () => `Workspace: ${cwd}\nPlatform: ${os.platform()}\nDate: ${now().toISOString().slice(0, 10)}`;
  // The session's tools: the built-ins, load_skill, then MCP tools as servers connect. The array
  // is the one the session and the MCP manager hold; with deferStartup it fills after the first frame.
  const tools: AnyTool[] = [];
  let teammateTools: ((name: string) => AnyTool[]) | undefined;
  const promptSource = createSystemPromptSource({
    cwd, cairnHome, claudeHome: claudeHomeFrom(options.env), ...(options.env['HOME'] ? { home: options.env['HOME'] } : {}),
    isReadDenied: () => permissions.readDeniedMatcher(), now, toolNames: () => tools.map((t) => t.name), onProblem: reportProblem,
    skillListing: () => skills?.listing(resolved.contextWindow).text ?? '',
  });
  // The tool implementations (most of the engine's code) load here, after the first frame with deferStartup.
  const setUpTools = async (skills: SkillRuntime): Promise<void> => {
    const [{ createToolPool }, { setUpLargeOutput }] = await Promise.all([import('./runtime/tool-pool.js'), import('./runtime/large-output-setup.js')]);
    const pool = createToolPool({
      cwd,
      cairnHome,
      now,
      shells: background.shells,
      sandbox,
      cron: background.cron,
      todos,
      permissions,
      agents: () => agents,
      provider: (model) => (model ? providerFor(model) : currentProvider()),
      environment,
      env: options.env,
      largeOutput: setUpLargeOutput({ cwd, cairnHome, env: options.env, sessionId, permissions, now, onProblem: reportProblem }),
      subagentTools: [skills.subagentLoadSkillTool],
      ...(checkpoints ? { checkpoints } : {}),
      tasks,
      bus,
      team: () => {
        if (!team) throw new Error('the team is not available yet');
        return team;
      },
    });
    teammateTools = pool.teammateTools;
    // Reads and edits in a subfolder bring its CLAUDE.md/AGENTS.md (and matching .claude/rules) into the context.
    tools.unshift(...withFolderInstructions([...pool.tools, skills.loadSkillTool], promptSource.forPaths));
    // Teammates and subagents use a subset of these names, so this list is the whole vocabulary.
    for (const line of unknownToolWarnings(origins, tools.map((t) => t.name))) later(line);
  };
  if (skills) await setUpTools(skills);
  // MCP servers: their tools join `tools` as each connects (the loop reads it at the start of every turn).
  const mcpSetup = await setUpMcp({ cwd, cairnHome, env: options.env, trusted: folder.trusted, ...(options.mcpConfig ? { flagConfigs: options.mcpConfig } : {}), tools, onStatus: (servers) => session?.emit(mcpServersEvent(servers)) });
  startupNotices.push(...mcpSetup.problems);
  const mcp = mcpSetup.manager;
  if (!deferred) startupNotices.push(...agentToolNotices(agents, tools.map((t) => t.name)));
  const system = async (ctx: { mode: PermissionMode; model: string }): Promise<string> => (await promptSource.build(ctx)).text;

  let started = !deferred;
  let backgroundWanted = false;
  let backgroundStarted = false;
  let closed = false;
  const startBackgroundNow = (): void => {
    // Start-up may finish after the TUI has already closed the runtime: nothing starts then.
    if (backgroundStarted || closed) return;
    backgroundStarted = true;
    background.start();
    mcp?.start();
  };
  // What deferStartup left for after the first frame, in the order an eager start-up does it.
  const finish = async (): Promise<void> => {
    const found: string[] = [];
    ({ agents, problems: agentProblems } = await loadAgents({ cwd, cairnHome, env: options.env }, found));
    agentsLoaded = true;
    for (const line of found) later(line);
    await sessionStartHooks(later);
    const loaded = await loadSkills(later);
    loaded.follow(live);
    await setUpTools(loaded);
    for (const line of agentToolNotices(agents, tools.map((t) => t.name))) later(line);
    connectScheduledRuns(live, background, tools.find((t) => t.name === 'agent'), cwd);
    started = true;
    if (backgroundWanted) startBackgroundNow();
  };

  const sessionOptions: ConstructorParameters<typeof AgentSession>[0] = {
    provider,
    tools,
    permissions,
    cwd,
    env: options.env,
    hooks: hooks.runner,
    system,
    interactive: options.interactive,
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(resumed ? { history: resumed.messages, prompts: resumed.prompts } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    compaction: {
      thresholdTokens: compactThreshold(options.env, resolved.contextWindow),
      onCompacted: async (result, trigger) => {
        await writeEpisodicNote(cwd, now(), result, trigger);
      },
    },
    providerFor,
    modelForPrompt: (text) => skills?.modelFor(text),
    sessionId,
    continueOnMaxTokens: sessionConfig.continueOnMaxTokens,
    reminders: async () => [...background.reminders(), ...leadMail(await bus.read(LEAD))],
  };
  const live = deferred ? new StartingSession(sessionOptions, finish) : new AgentSession(sessionOptions);
  const finishStartup = live instanceof StartingSession ? () => live.finishStartup() : () => Promise.resolve();
  session = live;
  team = createTeam({
    bus,
    definitions: () => agents,
    provider: (model) => (model ? providerFor(model) : currentProvider()),
    tools: (name) => {
      if (!teammateTools) throw new Error('the tools are not available yet');
      return teammateTools(name);
    },
    permissions: (mode) => permissionsForMode({ cwd, cairnHome, permissions }, mode),
    ...(live.askChannel ? { ask: live.askChannel } : {}),
    emit: (event) => live.emit(event),
    cwd,
    environment,
  });
  followSession(live, { todos, cairnHome, sessionId, now });
  skills?.follow(live);
  if (!deferred) connectScheduledRuns(live, background, tools.find((t) => t.name === 'agent'), cwd);
  const writer =
    options.persist !== false
      ? recordSession(live, { cairnHome, cwd, sessionId, now, ...(start.resumeFile ? { resumeFile: start.resumeFile } : {}) })
      : undefined;

  // Headless: the one prompt may need the servers' tools, so wait for them (MCP_TIMEOUT bounds it).
  if (mcp && !options.interactive) {
    mcp.start();
    await mcp.ready();
    startupNotices.push(...mcpStartupProblems(mcp.statuses()));
    // A headless run is one prompt; its servers must not keep the process alive after it.
    live.subscribe((event) => {
      if (event.type === 'terminal') void mcp.close();
    });
  }
  return {
    session: live,
    cwd,
    cairnHome,
    providerSource: resolved.source,
    settingsSources: sources,
    sessionId,
    contextWindow: resolved.contextWindow,
    pricing: sessionConfig.pricing,
    ...(writer ? { sessionFile: writer.file } : {}),
    ...(resumed ? { resumed } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    startupNotices,
    todos,
    background,
    team,
    bus,
    tasks,
    sandbox,
    get skills() {
      if (!skills) throw new Error('the skills are not loaded yet (finishStartup)');
      return skills;
    },
    skillsLoaded,
    hooks,
    get agentTypes() {
      return agentsLoaded ? { agents, problems: agentProblems } : undefined;
    },
    instructions: promptSource,
    ...(mcp ? { mcp } : {}),
    startBackground() {
      backgroundWanted = true;
      if (started) startBackgroundNow();
    },
    finishStartup,
    // With deferStartup, /prompt and /context wait for the tools the prompt names.
    systemPrompt: async () => {
      await finishStartup();
      return system({ mode: live.mode, model: live.model });
    },
    systemPromptSections: async () => {
      await finishStartup();
      return (await promptSource.build({ mode: live.mode, model: live.model })).sections;
    },
    endSession: async (reason) => {
      const said: string[] = [];
      await hooks.end(reason, (e) => said.push(hookLine(e)));
      return said;
    },
    close: () => {
      closed = true;
      team?.abortAll();
      background.stop();
      // An exit path that skipped endSession (a crash, process.exit) still starts them; nobody waits.
      void hooks.end('other', () => undefined);
      writer?.close();
      sandbox.close();
      void mcp?.close();
    },
  };
}
