import { describe, expect, it } from 'vitest';
import type { AgentEvent, TodoItem } from '../../../src/events.js';
import { TODO_REMINDER_AFTER_TURNS, TodoList } from '../../../src/todos/todo-list.js';
import { createTodoWriteTool } from '../../../src/tools/todo-write.js';

const item = (content: string, status: TodoItem['status']): TodoItem => ({ content, status, activeForm: `${content}ing` });

describe('todo_write', () => {
  it('replaces the whole list, emits a todos event and reports the open count', async () => {
    const list = new TodoList();
    const events: AgentEvent[] = [];
    const tool = createTodoWriteTool(list);
    const todos = [item('plan', 'completed'), item('build', 'in_progress'), item('test', 'pending')];
    const result = await tool.call({ todos }, { cwd: '/', signal: new AbortController().signal, emit: (e) => events.push(e) });
    expect(result).toMatchObject({ content: 'Todo list updated: 3 items, 2 open.' });
    expect(events).toEqual([{ type: 'todos', todos }]);
    expect(list.todos).toEqual(todos);
  });

  it('rejects two items in progress with a clear message, leaving the list as it was', async () => {
    const list = new TodoList();
    list.replace([item('a', 'pending')]);
    const tool = createTodoWriteTool(list);
    const result = await tool.call({ todos: [item('a', 'in_progress'), item('b', 'in_progress')] }, { cwd: '/', signal: new AbortController().signal });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/At most one todo can be in_progress; 2 are: "a", "b"/);
    expect(list.todos).toEqual([item('a', 'pending')]);
  });

  it('schema errors name the field', () => {
    const tool = createTodoWriteTool(new TodoList());
    const parsed = tool.inputSchema.safeParse({ todos: [{ content: 'x', status: 'doing', activeForm: 'x' }] });
    expect(parsed.success).toBe(false);
  });
});

describe('stale todo reminder', () => {
  it('reminds once after several turns without an update while items are open', () => {
    const list = new TodoList();
    list.replace([item('build', 'in_progress')]);
    const reminders: (string | undefined)[] = [];
    for (let i = 0; i < TODO_REMINDER_AFTER_TURNS + 3; i++) {
      list.tick();
      reminders.push(list.reminder());
    }
    const given = reminders.filter(Boolean);
    expect(given).toHaveLength(1);
    expect(reminders.findIndex(Boolean)).toBe(TODO_REMINDER_AFTER_TURNS - 1);
    expect(given[0]).toMatch(/\[in_progress\] build/);
    list.replace([item('build', 'completed')]);
    for (let i = 0; i < 10; i++) list.tick();
    expect(list.reminder()).toBeUndefined();
  });
});
