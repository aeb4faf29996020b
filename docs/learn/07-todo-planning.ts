// Step 7: todo planning. A tool whose only effect is a checklist the user can watch; the model
// sends the whole list each time, so the list is always what the model believes.
import type { Message } from '../../src/messages.js';
import type { ModelProvider, ModelStreamEvent } from '../../src/providers/provider.js';
import { agentLoop, type LearnTool } from './05-tool-loop.js';
import { defaultIo, sampleWorkspace, type StepIo } from './learn-kit.js';

export interface Todo { content: string; status: 'pending' | 'in_progress' | 'completed' }

export function todoTool(list: Todo[], write: (text: string) => void): LearnTool {
  return {
    name: 'todo_write',
    description: 'Keeps a checklist for work of 3 or more steps. Send the whole list every time; exactly one item in_progress.',
    input_schema: {
      type: 'object',
      required: ['todos'],
      properties: { todos: { type: 'array', items: { type: 'object', required: ['content', 'status'], properties: { content: { type: 'string' }, status: { enum: ['pending', 'in_progress', 'completed'] } } } } },
    },
    async run(input) {
      const todos = input['todos'] as Todo[];
      if (todos.filter((t) => t.status === 'in_progress').length > 1) return { content: 'Only one item may be in_progress', isError: true };
      list.splice(0, list.length, ...todos);
      write(list.map((t) => `   ${t.status === 'completed' ? '[x]' : t.status === 'in_progress' ? '[>]' : '[ ]'} ${t.content}`).join('\n') + '\n');
      return { content: `Todo list updated: ${list.filter((t) => t.status !== 'completed').length} open.` };
    },
  };
}

// The offline model has no planning grammar, so offline this stand-in plays the model's part: it
// writes the list, works through it one todo_write at a time, then answers.
function plannerStandIn(): ModelProvider {
  const steps = ['Read the notes', 'Sort them', 'Write the summary'];
  return {
    name: 'planner-stand-in',
    model: 'scripted',
    offline: true,
    async *stream(request): AsyncGenerator<ModelStreamEvent> {
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      const message: Message = turn <= steps.length
        ? { role: 'assistant', content: [{ type: 'tool_use', id: `todo_${turn}`, name: 'todo_write', input: { todos: steps.map((content, i) => ({ content, status: i < turn ? 'completed' : i === turn ? 'in_progress' : 'pending' })) } }] }
        : { role: 'assistant', content: [{ type: 'text', text: 'All three steps are done.' }] };
      yield { type: 'message', message, stopReason: turn <= steps.length ? 'tool_use' : 'end_turn' };
    },
  };
}

export async function main(io: StepIo = defaultIo(), cwd = sampleWorkspace()): Promise<Todo[]> {
  const list: Todo[] = [];
  const prompt = 'Read notes.txt, sort the notes, and write a summary. Plan it with todo_write first.';
  io.write(`> ${prompt}\n`);
  const answer = await agentLoop({
    model: io.model.offline ? plannerStandIn() : io.model,
    system: 'You are a coding agent. Plan multi-step work with todo_write and keep it current.',
    history: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    tools: [todoTool(list, io.write)],
    cwd,
    write: io.write,
  });
  io.write(`${answer}\n`);
  return list;
}
