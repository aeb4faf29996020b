import { createAgentTool } from '../agents/agent-tool.js';
import type { AgentDefinition } from '../agents/agent-definition.js';
import type { CronScheduler } from '../cron/scheduler.js';
import { createPermissionChecker } from '../permissions/checker.js';
import type { PermissionChecker } from '../permissions/types.js';
import type { ModelProvider } from '../providers/provider.js';
import type { ShellManager } from '../shells/shell-manager.js';
import type { TodoList } from '../todos/todo-list.js';
import { createBuiltinTools } from '../tools/builtin.js';
import { createCompactTool } from '../tools/compact.js';
import { createCronCreateTool } from '../tools/cron-create.js';
import { createCronDeleteTool } from '../tools/cron-delete.js';
import { createCronListTool } from '../tools/cron-list.js';
import { createMemoryTool } from '../tools/memory.js';
import { createTodoWriteTool } from '../tools/todo-write.js';
import type { AnyTool } from '../tools/tool.js';

export interface ToolPoolDeps {
  cwd: string;
  cairnHome: string;
  now: () => Date;
  shells: ShellManager;
  cron: CronScheduler;
  todos: TodoList;
  permissions: PermissionChecker;
  agents: () => readonly AgentDefinition[];
  provider: (model?: string) => ModelProvider;
  environment: () => string;
}

// Session-level tools a subagent must not share: its own todo list, the schedule, compaction.
const PARENT_ONLY = new Set(['todo_write', 'cron_create', 'cron_delete', 'cron_list', 'compact', 'agent']);

/** Every tool of a main session, in the order the model sees them. */
export function createToolPool(deps: ToolPoolDeps): AnyTool[] {
  const builtins = createBuiltinTools({ shells: deps.shells });
  const session: AnyTool[] = [
    createTodoWriteTool(deps.todos),
    createMemoryTool({ cairnHome: deps.cairnHome, now: deps.now }),
    createCompactTool(),
    createCronCreateTool(deps.cron),
    createCronListTool(deps.cron),
    createCronDeleteTool(deps.cron),
  ];
  const childTools = [...builtins, ...session].filter((t) => !PARENT_ONLY.has(t.name));
  const agent = createAgentTool({
    definitions: deps.agents,
    provider: deps.provider,
    tools: () => childTools,
    permissions: (mode) =>
      mode === undefined
        ? deps.permissions
        : createPermissionChecker({ workspace: deps.cwd, mode, rules: deps.permissions.rules(), cairnHome: deps.cairnHome }),
    environment: deps.environment,
    cwd: deps.cwd,
  });
  return [...builtins, agent, ...session];
}
