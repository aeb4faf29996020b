import * as z from 'zod';
import { TodoItemSchema, type TodoItem } from '../events.js';
import type { TodoList } from '../todos/todo-list.js';
import { validateTodos } from '../todos/todo-list.js';
import { defineTool } from './tool.js';

const inputSchema = z.object({
  todos: z.array(TodoItemSchema).describe('The whole list, every time: content (imperative), activeForm (present continuous), status'),
});

/** "3 of 5 done · now: Running the tests": the list's state in one line. */
function todoTitle(todos: readonly TodoItem[]): string {
  const done = todos.filter((t) => t.status === 'completed').length;
  const now = todos.find((t) => t.status === 'in_progress');
  return todos.length === 0 ? 'cleared' : `${done} of ${todos.length} done${now ? ` · now: ${now.activeForm}` : ''}`;
}

export function createTodoWriteTool(list: TodoList) {
  return defineTool({
    name: 'todo_write',
    description:
      'Keeps a visible checklist for multi-step work. Send the full list each time. Use it for tasks with 3 or more steps: ' +
      'add the steps, keep exactly one in_progress while you work, mark each completed as soon as it is done.',
    inputSchema,
    describe: (input) => ({ title: todoTitle(input.todos), subject: { kind: 'input' } }),
    kind: 'other',
    // Only the session's own list changes.
    effects: () => 'session',
    async call(input, ctx) {
      const problem = validateTodos(input.todos);
      if (problem) return { content: `Invalid todo list: ${problem}`, isError: true };
      list.replace(input.todos);
      ctx.emit?.({ type: 'todos', todos: input.todos });
      const open = list.open.length;
      return { content: `Todo list updated: ${input.todos.length} items, ${open} open.` };
    },
  });
}
