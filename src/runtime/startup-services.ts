// Start-up, phase 2 of 4 (bootstrap.ts runs them): from the settled facts, the services a session
// stands on: permissions, the provider, the session to continue, the sandbox, hooks, background
// work, the team's bus and tasks, checkpoints, the system prompt's source and the MCP servers
// (configured, not started). Nothing here needs the session itself: what does reads `ref`, which
// openSession fills, so no part can reach for a session or file that does not exist yet.
import os from 'node:os';
import { clockFromEnv } from '../clock.js';
import { createSystemPromptSource, type SystemPromptSource } from '../context/system-prompt-source.js';
import { instructionsLoadedHooks } from '../hooks/instructions-loaded.js';
import type { AgentDefinition } from '../agents/agent-definition.js';
import type { AgentLoadProblem } from '../agents/agent-definition-loader.js';
import { notice } from '../events.js';
import type { McpManager } from '../mcp/mcp-manager.js';
import { mcpServersEvent, setUpMcp } from '../mcp/mcp-setup.js';
import { activePlugins } from '../plugins/active-plugins.js';
import type { PermissionChecker } from '../permissions/types.js';
import type { RuleOrigin } from '../permissions/rules/settings.js';
import type { ModelProvider } from '../providers/provider.js';
import type { ResolvedProvider } from '../providers/resolve.js';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import { setUpSandbox } from '../sandbox/sandbox-startup.js';
import type { AgentSession } from '../session/agent-session.js';
import type { CheckpointRecorder } from '../session/checkpoint-tools.js';
import { claudeHomeFrom } from '../settings/settings-layers.js';
import type { SkillRuntime } from '../skills/skill-runtime.js';
import { createTaskStore, type TaskStore } from '../tasks/task-store.js';
import { createMessageBus, type MessageBus } from '../team/message-bus.js';
import { offeredTools, type AnyTool } from '../tools/tool.js';
import { DisposalStack } from '../util/disposal-stack.js';
import { createBackgroundWork, type BackgroundWork } from './background-work.js';
import { setUpCheckpoints } from './checkpoint-setup.js';
import { setUpHooks, type SessionHooks } from './hook-wiring.js';
import { permissionsFromSettings } from './permissions-from-options.js';
import { setUpProvider, type ProviderFor } from './provider-setup.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { SessionFacts } from './session-facts.js';
import { loadStartupState, type StartupState } from './startup-state.js';

/** What exists only once the session is open (openSession fills it); read, never held. */
export interface SessionRef {
  session?: AgentSession;
  /** The session file, when the session is saved. */
  file?: string;
}

export interface Services {
  options: RuntimeOptions;
  facts: SessionFacts;
  cwd: string;
  cairnHome: string;
  now: () => Date;
  ref: SessionRef;
  /** Problems that leave cairn usable, found so far: told at start (TUI notices, stderr headless). */
  notices: string[];
  permissions: PermissionChecker;
  /** The settings files the rules came from, and where each rule came from. */
  sources: string[];
  origins: RuleOrigin[];
  resolved: ResolvedProvider;
  provider: ModelProvider;
  providerFor: ProviderFor;
  /** The session's provider once it is open (it may switch with /model), else the starting one. */
  currentProvider: () => ModelProvider;
  /**
   * The provider for a model a subagent, teammate or prompt hook names: that model of the provider the
   * session uses now (after /model switched provider too); none named: the session's own.
   */
  modelProvider: (model?: string) => ModelProvider;
  start: StartupState;
  /** The agent definitions: loaded by finishStartup (phase 4). */
  agents: { list: readonly AgentDefinition[]; problems: readonly AgentLoadProblem[]; loaded: boolean };
  /** Skills and custom commands: loaded by finishStartup; `loaded` resolves then. */
  skills: { current?: SkillRuntime; loaded: Promise<SkillRuntime>; found: (skills: SkillRuntime) => void };
  sandbox: CommandSandbox;
  hooks: SessionHooks;
  background: BackgroundWork;
  bus: MessageBus;
  tasks: TaskStore;
  checkpoints?: CheckpointRecorder;
  promptSource: SystemPromptSource;
  /** The session's tools: the array the session and the MCP manager hold; finishStartup fills it. */
  tools: AnyTool[];
  /** Teammates' tools by agent type: set with the tools. */
  teammateTools?: (name: string) => AnyTool[];
  mcp?: McpManager;
  /** The workspace, platform and date, for subagents' prompts. */
  environment: () => string;
  /** A problem met after start-up (a file cairn cannot read or use): a warning to the session, or a start-up notice before it is open. */
  reportProblem: (message: string) => void;
  /** Everything that needs undoing when the runtime closes, undone in reverse. */
  disposals: DisposalStack;
}

export async function buildServices(options: RuntimeOptions, facts: SessionFacts): Promise<Services> {
  const { cwd, cairnHome } = facts;
  const now = options.now ?? (() => new Date());
  const ref: SessionRef = {};
  const disposals = new DisposalStack();
  const notices: string[] = [...facts.notices];
  const reportProblem = (message: string): void => {
    if (ref.session) ref.session.emit(notice('warning', message));
    else notices.push(message);
  };
  const { permissions, sources, origins } = permissionsFromSettings({ ...options, cwd, cairnHome, mode: facts.mode }, facts.settings);
  const { resolved, provider, providerFor, notices: providerNotices } = setUpProvider({ ...options, cairnHome, resolved: facts.resolved });
  const currentProvider = (): ModelProvider => ref.session?.provider ?? provider;
  const modelProvider = (model?: string): ModelProvider => (model === undefined || model === '' ? currentProvider() : providerFor(model, { provider: currentProvider().name }));
  notices.push(...providerNotices);
  // The agent definitions wait for finishStartup (the TUI's first frame does not show them).
  const start = await loadStartupState({ ...options, cwd, cairnHome, skipAgents: true }, notices);

  const { sandbox, notices: sandboxNotices } = await setUpSandbox({ cwd, cairnHome, env: options.env, introduce: options.interactive, ...(options.sandbox !== undefined ? { flag: options.sandbox } : {}), session: () => ref.session });
  notices.push(...sandboxNotices);
  disposals.defer('sandbox', () => sandbox.close());
  // Read deny rules hold inside the sandbox as the kernel's: what they cover is hidden from every sandboxed command.
  sandbox.hideReadDenied(async () => (await permissions.readDeniedPlaces?.()) ?? []);

  // Hooks from every settings file and .hooks.json; the folder's own run only once it is trusted.
  const hooks = await setUpHooks({
    cwd, cairnHome, claudeHome: facts.claudeHome, env: options.env, trusted: () => facts.trusted, sessionId: start.sessionId,
    transcriptPath: () => ref.file, permissionMode: () => ref.session?.mode ?? facts.mode,
    // A prompt hook's `model` is resolved as /model would; none named: the session's current model.
    model: modelProvider,
  });
  notices.push(...hooks.set.problems());
  // An exit path that skipped endSession (a crash, process.exit) still starts them; nobody waits.
  disposals.defer('SessionEnd hooks', () => void hooks.end('other', () => undefined));

  const background = createBackgroundWork({ cwd, cairnHome, clock: clockFromEnv(options.env), todos: start.todos, env: options.env, interactive: options.interactive === true });
  disposals.defer('background work', () => background.stop());
  const bus = createMessageBus(cwd, now, reportProblem);
  const tasks = createTaskStore(cwd, now, reportProblem);
  const checkpoints = await setUpCheckpoints({ cairnHome, cwd, sessionId: start.sessionId, persist: options.persist !== false, onProblem: reportProblem, ...(start.resumeFile ? { resumeFile: start.resumeFile } : {}) });
  if (checkpoints?.snapshots) disposals.defer('workspace snapshots', checkpoints.snapshots.pruneNow);

  const tools: AnyTool[] = [];
  let found: (loaded: SkillRuntime) => void = () => undefined;
  const skills: Services['skills'] = { loaded: new Promise<SkillRuntime>((resolve) => (found = resolve)), found: (loaded) => found(loaded) };
  const promptSource = createSystemPromptSource({
    cwd, cairnHome, claudeHome: claudeHomeFrom(options.env), ...(options.env['HOME'] ? { home: options.env['HOME'] } : {}),
    isReadDenied: () => permissions.readDeniedMatcher(), now, toolNames: () => offeredTools(tools).map((t) => t.name), onProblem: reportProblem,
    // Its share of the window of the model in use (/model changes it).
    skillListing: () => skills.current?.listing(ref.session?.contextWindow ?? resolved.contextWindow).text ?? '',
    ...(options.systemPrompt ? { custom: options.systemPrompt } : {}),
    onInstructionsLoaded: instructionsLoadedHooks(hooks.runner, (event) => ref.session?.emit(event), [cairnHome, facts.claudeHome]),
    ...(options.bare ? { bare: true } : {}),
  });

  // MCP servers: configured now, started later; their tools join `tools` as each connects.
  const mcpSetup = await setUpMcp({ cwd, cairnHome, env: options.env, trusted: facts.trusted, choices: facts.mcpChoices, ...(options.mcpConfig ? { flagConfigs: options.mcpConfig } : {}), tools, onStatus: (servers) => ref.session?.emit(mcpServersEvent(servers)) });
  notices.push(...mcpSetup.problems);
  // Plugins: what each could not load, told once (the loaders above took what did load).
  notices.push(...(await activePlugins({ cwd, cairnHome, env: options.env, trusted: facts.trusted })).problems);
  const mcp = mcpSetup.manager;
  if (mcp) disposals.defer('MCP servers', () => void mcp.close());

  return {
    options, facts, cwd, cairnHome, now, ref, notices, permissions, sources, origins, resolved, provider, providerFor,
    currentProvider,
    modelProvider,
    start,
    agents: { list: [], problems: [], loaded: false },
    skills, sandbox, hooks, background, bus, tasks,
    ...(checkpoints ? { checkpoints } : {}),
    promptSource, tools,
    ...(mcp ? { mcp } : {}),
    environment: () => `Workspace: ${cwd}\nPlatform: ${os.platform()}\nDate: ${now().toISOString().slice(0, 10)}`,
    reportProblem,
    disposals,
  };
}
