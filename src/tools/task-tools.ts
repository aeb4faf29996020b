import * as z from 'zod';
import { formatTask as format, type TaskStore } from '../tasks/task-store.js';
import { defineTool, type AnyTool } from './tool.js';
import { errorMessage } from '../util/error-message.js';
import { titleLine } from './call-view.js';

async function guarded(fn: () => Promise<string>): Promise<{ content: string; isError?: boolean }> {
  try {
    return { content: await fn() };
  } catch (error) {
    return { content: errorMessage(error), isError: true };
  }
}

/** task_create, task_list, task_get, task_update over the shared store; `actor` names who calls. */
export function createTaskTools(store: TaskStore, actor: string): AnyTool[] {
  return [
    defineTool({
      name: 'task_create',
      description: 'Creates a shared task (visible to every agent working in this project): a subject, a description, and ids of tasks that block it.',
      inputSchema: z.object({
        subject: z.string().describe('One line: what to do'),
        description: z.string().optional().describe('Details and acceptance criteria'),
        blocked_by: z.array(z.string()).optional().describe('Ids of tasks that must be completed first'),
      }),
      describe: (input) => ({ title: titleLine(input.subject) || 'a task', subject: { kind: 'input' } }),
      kind: 'other',
      effects: () => 'session',
      call: (input) => guarded(async () => `Created ${format(await store.create(input))}`),
    }),
    defineTool({
      name: 'task_list',
      description: 'Lists the shared tasks with status, owner and blockers.',
      inputSchema: z.object({}),
      describe: () => ({ title: 'shared tasks', subject: { kind: 'input' } }),
      kind: 'read',
      effects: () => 'session',
      isConcurrencySafe: () => true,
      // A task file that cannot be read is named in the list (and told to the user once), never just left out.
      call: () =>
        guarded(async () => {
          const { tasks, problems } = await store.listing();
          const lines = [...tasks.map(format), ...problems];
          return lines.join('\n') || 'No shared tasks.';
        }),
    }),
    defineTool({
      name: 'task_get',
      description: 'Shows one shared task in full.',
      inputSchema: z.object({ id: z.string() }),
      describe: (input) => ({ title: `#${input.id}`, subject: { kind: 'input' } }),
      kind: 'read',
      effects: () => 'session',
      isConcurrencySafe: () => true,
      call: (input) => guarded(async () => { const t = await store.get(input.id); return `${format(t)}\n\n${t.description}`; }),
    }),
    defineTool({
      name: 'task_update',
      description: `Updates a shared task. You are "${actor}"${actor === 'lead' ? ' (the lead: the agent the user talks to, whose teammates work under it)' : ''}: claim a task by setting owner to "${actor}" (refused, naming the owner, if another agent owns it); set status in_progress/completed; owner null releases it.`,
      inputSchema: z.object({
        id: z.string(),
        status: z.enum(['pending', 'in_progress', 'completed']).optional(),
        owner: z.string().nullable().optional().describe(`Your name ("${actor}") to claim; null to release`),
        subject: z.string().optional(),
        description: z.string().optional(),
        blocked_by: z.array(z.string()).optional(),
      }),
      describe: (input) => ({ title: [`#${input.id}`, input.status, input.owner === null ? 'released' : input.owner && `owner ${input.owner}`].filter(Boolean).join(' '), subject: { kind: 'input' } }),
      kind: 'other',
      effects: () => 'session',
      call: (input) => guarded(async () => {
        const { id, ...change } = input;
        return `Updated ${format(await store.update(id, change, actor))}`;
      }),
    }),
  ];
}
