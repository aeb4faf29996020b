import { createReportFindingsTool } from '../tools/report-findings.js';
import { createAgentTool } from '../agents/agent-tool.js';
import type { BackgroundAgents } from '../agents/background-agents.js';
import type { AgentDefinition } from '../agents/agent-definition.js';
import type { CronScheduler } from '../cron/scheduler.js';
import type { AskPermission, PermissionChecker } from '../permissions/types.js';
import type { ModelProvider } from '../providers/provider.js';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { ShellManager } from '../shells/shell-manager.js';
import type { ShellWatches } from '../shells/shell-watches.js';
import { createMonitorTool, MONITOR_MAX_TIMEOUT_HEADLESS_MS, MONITOR_MAX_TIMEOUT_MS } from '../tools/monitor.js';
import type { TodoList } from '../todos/todo-list.js';
import { withBashCheckpoints } from '../session/bash-checkpoints.js';
import { withCheckpoints, type CheckpointRecorder } from '../session/checkpoint-tools.js';
import { createBuiltinTools } from '../tools/builtin.js';
import { SAVED_BASH_CHARS, withLargeOutput } from '../tools/large-output.js';
import type { LargeOutputSaver } from '../tools/large-output.js';
import { createWebTools } from '../tools/web-tools.js';
import { createCompactTool } from '../tools/compact.js';
import { createCronCreateTool } from '../tools/cron-create.js';
import { createCronDeleteTool } from '../tools/cron-delete.js';
import { createCronListTool } from '../tools/cron-list.js';
import { createExitPlanModeTool } from '../tools/exit-plan-mode.js';
import { createEnterPlanModeTool } from '../tools/enter-plan-mode.js';
import { createAskUserQuestionTool } from '../tools/ask-user-question.js';
import { createMemoryTool } from '../tools/memory.js';
import { createTodoWriteTool } from '../tools/todo-write.js';
import { offeredWhile, type AnyTool } from '../tools/tool.js';
import type { TaskStore } from '../tasks/task-store.js';
import { permissionsForMode } from './permissions-from-options.js';
import { createPermissionChecker } from '../permissions/checker.js';
import type { PermissionMode } from '../events.js';
import type { MessageBus } from '../team/message-bus.js';
import type { Team } from '../team/team.js';
import { createTaskTools } from '../tools/task-tools.js';
import { createMessagingTools, createTeamSpawnTool } from '../tools/team-tools.js';

export interface ToolPoolDeps {
  cwd: string;
  cairnHome: string;
  now: () => Date;
  shells: ShellManager;
  /** Watches on background shells' output: the lead's monitor tool; absent, it is not offered. */
  watches?: ShellWatches;
  /** Runs bash commands in the OS sandbox when it is on. */
  sandbox?: CommandSandbox;
  cron: CronScheduler;
  todos: TodoList;
  permissions: PermissionChecker;
  agents: () => readonly AgentDefinition[];
  provider: (model?: string) => ModelProvider;
  environment: () => string;
  tasks: TaskStore;
  bus: MessageBus;
  team: () => Team;
  /** The session's environment: what bash commands run with, and the web tools' settings (search backend, keys). */
  env?: NodeJS.ProcessEnv;
  /** Saves results too large for the context beside the session. */
  largeOutput?: LargeOutputSaver;
  /** Checkpoints of write_file/edit_file changes and of what bash commands changed (rewind), subagents' and teammates' included. */
  checkpoints?: CheckpointRecorder;
  /** Tools subagents get beside the pool's (load_skill); teammates do not. */
  subagentTools?: readonly AnyTool[];
  /** Where ask_user_question's questions go when a call has no ask channel (the session's: the TUI, the page, a stream-json client); absent or undefined: no one can answer. */
  questions?: () => AskPermission | undefined;
  /** cairn -p: monitor's timeout_ms is capped lower (10 min, as in Claude Code's -p). */
  headless?: boolean;
  /** Where the lead's run_in_background agent calls go; absent (cairn -p): they run in the foreground. */
  backgroundAgents?: BackgroundAgents;
}

export interface ToolPool {
  tools: AnyTool[];
  /** What a teammate called `name` gets: the child tools plus messaging and tasks as itself. */
  teammateTools(name: string): AnyTool[];
}

// Session-level tools a subagent must not share: its own todo list, the schedule, compaction.
const PARENT_ONLY = new Set([
  'todo_write', 'report_findings', 'enter_plan_mode', 'exit_plan_mode', 'cron_create', 'cron_delete', 'cron_list', 'compact', 'agent',
  'team_spawn', 'send_message', 'read_inbox', 'task_create', 'task_list', 'task_get', 'task_update', 'monitor',
]);

/** Every tool of a main session, in the order the model sees them. */
export function createToolPool(deps: ToolPoolDeps): ToolPool {
  const saver = deps.largeOutput;
  // The file, shell and web tools of one folder: the workspace's, or a worktree agent's (its own sandbox and checker).
  const builtinsAt = (cwd: string, sandbox: CommandSandbox | undefined, permissions: PermissionChecker, checkpoints: CheckpointRecorder | undefined): AnyTool[] =>
    [
      ...createBuiltinTools({ shells: deps.shells, ...(sandbox ? { sandbox } : {}), ...(saver ? { outputChars: SAVED_BASH_CHARS } : {}), ...(deps.env ? { env: deps.env } : {}) }),
      ...createWebTools({ cwd, cairnHome: deps.cairnHome, env: deps.env ?? {}, permissions }),
    ]
      .map((t) => (saver ? withLargeOutput(t, saver) : t))
      .map((t) => (checkpoints ? withBashCheckpoints(withCheckpoints(t, checkpoints), checkpoints) : t));
  const builtins = builtinsAt(deps.cwd, deps.sandbox, deps.permissions, deps.checkpoints);
  // Offered only when they can work: schedules fire only where the scheduler runs, and the lead's
  // team tools have someone to talk to once a teammate is started.
  const cronOff = () => (deps.cron.running ? undefined : 'scheduled prompts do not run in this session (cairn -p runs one prompt and exits)');
  const noTeam = () => (teamStarted(deps.team) ? undefined : 'there is no team yet: start a teammate with team_spawn first');
  const session: AnyTool[] = [
    createTodoWriteTool(deps.todos),
    createEnterPlanModeTool(deps.permissions),
    createExitPlanModeTool(deps.permissions),
    createAskUserQuestionTool(deps.permissions, deps.questions ?? (() => undefined)),
    createMemoryTool({ cairnHome: deps.cairnHome, now: deps.now }),
    createCompactTool(),
    createReportFindingsTool(),
    ...(deps.watches ? [createMonitorTool(deps.shells, deps.watches, { ...(deps.sandbox ? { sandbox: deps.sandbox } : {}), maxTimeoutMs: deps.headless ? MONITOR_MAX_TIMEOUT_HEADLESS_MS : MONITOR_MAX_TIMEOUT_MS })] : []),
    ...[createCronCreateTool(deps.cron), createCronListTool(deps.cron), createCronDeleteTool(deps.cron)].map((t) => offeredWhile(t, cronOff)),
    ...createTaskTools(deps.tasks, 'lead').map((t) => offeredWhile(t, noTeam)),
    createTeamSpawnTool(deps.team),
    ...createMessagingTools(deps.bus, 'lead').map((t) => offeredWhile(t, noTeam)),
  ];
  const childTools = [...builtins, ...session].filter((t) => !PARENT_ONLY.has(t.name));
  const agent = createAgentTool({
    definitions: deps.agents,
    provider: deps.provider,
    tools: () => [...childTools, ...(deps.subagentTools ?? [])],
    permissions: (mode) => permissionsForMode(deps, mode),
    environment: deps.environment,
    cwd: deps.cwd,
    withheld: PARENT_ONLY,
    ...(deps.backgroundAgents ? { background: deps.backgroundAgents } : {}),
    isolate: (dir) => {
      // Rooted at the worktree: relative paths, the workspace boundary, protected paths and the
      // sandbox's writable root are the worktree's. Rewind does not cover it (its changes are on its branch).
      const sandbox = deps.sandbox?.rootedAt(dir);
      const checker = (mode: PermissionMode | undefined): PermissionChecker =>
        createPermissionChecker({ workspace: dir, mode: mode ?? deps.permissions.mode, rules: deps.permissions.rules(), cairnHome: deps.cairnHome });
      const permissions = checker(undefined);
      const tools = [...builtinsAt(dir, sandbox, permissions, undefined), ...session].filter((t) => !PARENT_ONLY.has(t.name));
      return { tools: [...tools, ...(deps.subagentTools ?? [])], permissions: (mode) => (mode === undefined ? permissions : checker(mode)), close: () => sandbox?.close() };
    },
  });
  return {
    tools: [...builtins, agent, ...session],
    teammateTools: (name) => [...childTools, ...createMessagingTools(deps.bus, name), ...createTaskTools(deps.tasks, name)],
  };
}

/** Whether a teammate has been started in this session (it stays so: the tool list stays stable for the prompt cache). */
function teamStarted(team: () => Team): boolean {
  try {
    return team().list().length > 0;
  } catch {
    return false;
  }
}
