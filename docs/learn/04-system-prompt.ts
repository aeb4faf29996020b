// Step 4: the system prompt. Who the agent is, where it runs, and the project's own instructions.
import fs from 'node:fs';
import path from 'node:path';
import { defaultIo, sampleWorkspace, type StepIo } from './learn-kit.js';

export function buildSystemPrompt(cwd: string, now: Date): string {
  const sections = [
    'You are a coding agent working in the user\'s project. Be brief; prefer doing to describing.',
    `Working directory: ${cwd}\nToday's date: ${now.toISOString().slice(0, 10)}\nPlatform: ${process.platform}`,
  ];
  // The project's instructions, as AGENTS.md / CLAUDE.md files give them.
  for (const name of ['AGENTS.md', 'CLAUDE.md']) {
    const file = path.join(cwd, name);
    if (fs.existsSync(file)) sections.push(`Instructions from ${name}:\n${fs.readFileSync(file, 'utf8').trim()}`);
  }
  return sections.join('\n\n');
}

export async function main(io: StepIo = defaultIo(), cwd = sampleWorkspace()): Promise<string> {
  const system = buildSystemPrompt(cwd, new Date());
  io.write(`--- system prompt ---\n${system}\n--- answer ---\n`);
  for await (const event of io.model.stream({
    model: io.model.model,
    system,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this project?' }] }],
    tools: [],
    maxTokens: 1024,
    signal: new AbortController().signal,
  })) {
    if (event.type === 'text_delta') io.write(event.text);
  }
  io.write('\n');
  return system;
}
