// Step 5: the tool use loop. Call the model; if it asks for tools, run them, send the results back, repeat.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContentBlock, Message, ToolUseBlock } from '../../src/messages.js';
import type { ModelProvider } from '../../src/providers/provider.js';
import { defaultIo, sampleWorkspace, type StepIo } from './learn-kit.js';

export interface LearnTool {
  name: string;
  description: string;
  /** JSON Schema of the input: what the model is told it may send. */
  input_schema: Record<string, unknown>;
  run(input: Record<string, unknown>, cwd: string): Promise<{ content: string; isError?: boolean }>;
}

export interface LoopOptions {
  model: ModelProvider;
  system: string;
  history: Message[];
  tools: LearnTool[];
  cwd: string;
  write: (text: string) => void;
  /** Step 9 puts the permission check here: a string is a refusal sent back to the model. */
  beforeTool?: (call: ToolUseBlock) => Promise<string | undefined>;
  indent?: string;
}

/** Runs until the model answers without asking for a tool; returns that answer. */
export async function agentLoop(o: LoopOptions): Promise<string> {
  const pad = o.indent ?? '';
  for (let turn = 0; turn < 20; turn++) {
    let reply: Message | undefined;
    for await (const event of o.model.stream({
      model: o.model.model,
      system: o.system,
      messages: o.history,
      tools: o.tools.map(({ name, description, input_schema }) => ({ name, description, input_schema })),
      maxTokens: 4096,
      signal: new AbortController().signal,
    })) {
      if (event.type === 'message') reply = event.message;
    }
    if (!reply) throw new Error('The stream ended without a message');
    o.history.push(reply);
    const calls = reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    const text = reply.content.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
    if (calls.length === 0) return text;
    // Every tool_use gets a tool_result, even a failed or refused one: the API requires the pair.
    const results = await Promise.all(calls.map(async (call): Promise<ContentBlock> => {
      o.write(`${pad}-> ${call.name} ${JSON.stringify(call.input)}\n`);
      const result = await runOne(o, call);
      o.write(`${pad}<- ${result.isError ? 'error: ' : ''}${result.content.split('\n')[0] ?? ''}\n`);
      return { type: 'tool_result', tool_use_id: call.id, content: result.content, is_error: result.isError === true };
    }));
    o.history.push({ role: 'user', content: results });
  }
  return '(stopped after 20 turns)';
}

async function runOne(o: LoopOptions, call: ToolUseBlock): Promise<{ content: string; isError?: boolean }> {
  const tool = o.tools.find((t) => t.name === call.name);
  if (!tool) return { content: `No tool named ${call.name}`, isError: true };
  const refused = await o.beforeTool?.(call);
  if (refused !== undefined) return { content: refused, isError: true };
  try {
    return await tool.run(call.input as Record<string, unknown>, o.cwd);
  } catch (error) {
    // A tool's failure is a result the model can act on, never a crash of the loop.
    return { content: error instanceof Error ? error.message : String(error), isError: true };
  }
}

const pathInput = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

export const readFileTool: LearnTool = {
  name: 'read_file',
  description: 'Reads a text file; lines are numbered.',
  input_schema: pathInput,
  async run(input, cwd) {
    const text = await fs.readFile(path.resolve(cwd, String(input['path'])), 'utf8');
    return { content: text.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '').map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n') };
  },
};

export const listDirTool: LearnTool = {
  name: 'list_dir',
  description: 'Lists a directory.',
  input_schema: pathInput,
  async run(input, cwd) {
    return { content: (await fs.readdir(path.resolve(cwd, typeof input['path'] === 'string' ? input['path'] : '.'))).sort().join('\n') };
  },
};

export async function main(io: StepIo = defaultIo(), cwd = sampleWorkspace()): Promise<string> {
  const prompt = 'list . then read notes.txt';
  io.write(`> ${prompt}\n`);
  const answer = await agentLoop({
    model: io.model,
    system: 'You are a coding agent. Use the tools to answer.',
    history: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    tools: [listDirTool, readFileTool],
    cwd,
    write: io.write,
  });
  io.write(`${answer}\n`);
  return answer;
}
