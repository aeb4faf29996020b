import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createShellManager } from '../../../src/shells/shell-manager.js';
import { createTaskStore } from '../../../src/tasks/task-store.js';
import { createMessageBus } from '../../../src/team/message-bus.js';
import { TodoList } from '../../../src/todos/todo-list.js';
import { createBuiltinTools } from '../../../src/tools/builtin.js';
import { createCompactTool } from '../../../src/tools/compact.js';
import { createExitPlanModeTool } from '../../../src/tools/exit-plan-mode.js';
import { createMemoryTool } from '../../../src/tools/memory.js';
import { createTaskTools } from '../../../src/tools/task-tools.js';
import { createMessagingTools } from '../../../src/tools/team-tools.js';
import { createTodoWriteTool } from '../../../src/tools/todo-write.js';
import { effectsOf, type AnyTool, type ToolEffects } from '../../../src/tools/tool.js';

// What each tool can change, decided on purpose (issue 13 item 3), and what plan mode makes of it.
const EXPECTED: Record<string, ToolEffects> = {
  read_file: 'none', list_dir: 'none', glob: 'none', grep: 'none', bash_output: 'none',
  write_file: 'workspace', edit_file: 'workspace',
  bash: 'world', kill_shell: 'world',
  todo_write: 'session', compact: 'session', task_create: 'session', task_list: 'session', task_get: 'session', task_update: 'session',
  send_message: 'session', read_inbox: 'session', agent: 'session', exit_plan_mode: 'session',
};

async function tools(): Promise<{ cwd: string; list: AnyTool[] }> {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cairn-effects-')));
  const permissions = createPermissionChecker({ workspace: cwd, mode: 'plan', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(cwd, '.home') });
  const list: AnyTool[] = [
    ...createBuiltinTools({ shells: createShellManager({ onEvent: () => {} }) }),
    createTodoWriteTool(new TodoList()),
    createCompactTool(),
    createMemoryTool({ cairnHome: join(cwd, '.home') }),
    createExitPlanModeTool(permissions),
    ...createTaskTools(createTaskStore(cwd), 'lead'),
    ...createMessagingTools(createMessageBus(cwd), 'lead'),
    createAgentTool({ definitions: () => [], provider: () => { throw new Error('no model'); }, tools: () => [], permissions: () => permissions, environment: () => '', cwd }),
  ];
  return { cwd, list };
}

describe('tool effects', () => {
  it('every tool declares what it can change', async () => {
    const { list } = await tools();
    for (const tool of list.filter((t) => t.name !== 'memory')) expect(effectsOf(tool, {}), tool.name).toBe(EXPECTED[tool.name]);
    expect(list.map((t) => t.name).sort()).toEqual([...Object.keys(EXPECTED), 'memory'].sort());
    // Memory that every later session reads is asked like a change outside; reading it is not.
    const memory = list.find((t) => t.name === 'memory')!;
    expect(effectsOf(memory, { action: 'read' })).toBe('none');
    expect(effectsOf(memory, { action: 'save', text: 'x' })).toBe('world');
  });

  it('a tool that declares nothing fails closed', () => {
    expect(effectsOf({}, {})).toBe('world');
  });

  it('plan mode runs what changes nothing or only the session, and denies changes to files and the world', async () => {
    const { cwd, list } = await tools();
    const plan = createPermissionChecker({ workspace: cwd, mode: 'plan', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(cwd, '.home') });
    const get = (name: string): AnyTool => list.find((t) => t.name === name)!;
    expect((await plan.check(get('todo_write'), { todos: [] })).behavior).toBe('allow');
    expect((await plan.check(get('task_create'), { subject: 's', description: 'd' })).behavior).toBe('allow');
    expect((await plan.check(get('read_file'), { path: 'a.txt' })).behavior).toBe('allow');
    expect((await plan.check(get('write_file'), { path: 'a.txt', content: 'x' })).behavior).toBe('deny');
    expect((await plan.check(get('memory'), { action: 'save', text: 'x' })).behavior).toBe('deny');
    expect((await plan.check(get('kill_shell'), { id: 'x' })).behavior).toBe('deny');
  });
});
