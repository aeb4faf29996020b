// Step 8: subagents. A tool that runs the same loop with a fresh history and fewer tools, and returns
// only its final answer: the parent's context gets a summary, not every file the child read.
import { agentLoop, listDirTool, readFileTool, type LearnTool } from './05-tool-loop.js';
import { defaultIo, sampleWorkspace, type StepIo } from './learn-kit.js';

export function agentTool(io: StepIo): LearnTool {
  return {
    name: 'agent',
    description: 'Hands a self-contained task to a read-only subagent and returns its report.',
    input_schema: { type: 'object', required: ['type', 'task', 'description'], properties: { type: { type: 'string' }, task: { type: 'string' }, description: { type: 'string' } } },
    async run(input, cwd) {
      const report = await agentLoop({
        model: io.model,
        system: 'You are a read-only subagent. Do the task with your tools and report in a few lines.',
        // A fresh history: the child sees its task, nothing of the parent's conversation.
        history: [{ role: 'user', content: [{ type: 'text', text: String(input['task']) }] }],
        // No agent tool here, so a subagent cannot start subagents of its own.
        tools: [readFileTool, listDirTool],
        cwd,
        write: io.write,
        indent: `   [${String(input['description'])}] `,
      });
      return { content: report };
    },
  };
}

export async function main(io: StepIo = defaultIo(), cwd = sampleWorkspace()): Promise<string> {
  const prompt = 'use two subagents to read a.txt and b.txt';
  io.write(`> ${prompt}\n`);
  const answer = await agentLoop({
    model: io.model,
    system: 'You are a coding agent. Delegate independent reading to subagents with the agent tool.',
    history: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    tools: [agentTool(io)],
    cwd,
    write: io.write,
  });
  io.write(`${answer}\n`);
  return answer;
}
