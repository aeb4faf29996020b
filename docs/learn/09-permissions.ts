// Step 9: permissions. The model is untrusted: a README it reads can tell it to run anything. So
// every call passes a check first; what the check cannot allow is asked, and "no" goes back to the model.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ToolUseBlock } from '../../src/messages.js';
import { createPermissionChecker } from '../../src/permissions/checker.js';
import { createBashTool } from '../../src/tools/bash.js';
import { createReadFileTool } from '../../src/tools/read-file.js';
import { agentLoop, readFileTool, type LearnTool } from './05-tool-loop.js';
import { defaultIo, sampleWorkspace, type StepIo } from './learn-kit.js';

const bashTool: LearnTool = {
  name: 'bash',
  description: 'Runs a shell command in the project.',
  input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  async run(input, cwd) {
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', String(input['command'])], { cwd });
    return { content: stdout + stderr };
  },
};

export type Ask = (call: ToolUseBlock) => Promise<boolean>;

/** Reads inside the project are allowed; everything else is the user's call. Unknown tools ask too. */
export function checker(cwd: string, ask: Ask): (call: ToolUseBlock) => Promise<string | undefined> {
  return async (call) => {
    const input = call.input as Record<string, unknown>;
    if (call.name === 'read_file') {
      const target = path.resolve(cwd, String(input['path']));
      if (target === cwd || target.startsWith(cwd + path.sep)) return undefined;
    }
    return (await ask(call)) ? undefined : `The user denied ${call.name}. Do not retry it; ask what to do instead.`;
  };
}

export async function main(io: StepIo = defaultIo(), cwd = sampleWorkspace()): Promise<string[]> {
  // The injected ask: the TUI shows an inline question; here a scripted user says yes to reads only.
  const asked: string[] = [];
  const ask: Ask = async (call) => {
    const yes = call.name === 'read_file';
    asked.push(`${call.name} ${JSON.stringify(call.input)}`);
    io.write(`   ? allow ${call.name} ${JSON.stringify(call.input)}: ${yes ? 'yes' : 'no'}\n`);
    return yes;
  };
  for (const prompt of ['read notes.txt', 'run rm -rf build']) {
    io.write(`> ${prompt}\n`);
    const answer = await agentLoop({
      model: io.model,
      system: 'You are a coding agent.',
      history: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
      tools: [readFileTool, bashTool],
      cwd,
      write: io.write,
      beforeTool: checker(cwd, ask),
    });
    io.write(`${answer}\n`);
  }

  // cairn's real chain (src/permissions/checker.ts) on the same kinds of call: rules, bash parsing, paths.
  const real = createPermissionChecker({ workspace: cwd, mode: 'default', rules: { allow: ['Bash(git status)'], ask: [], deny: ['Read(./.env)'] }, cairnHome: path.join(cwd, '.cairn-home') });
  const bash = createBashTool();
  const read = createReadFileTool();
  io.write('cairn\'s own checker:\n');
  for (const [tool, input] of [
    [read, { path: 'notes.txt' }], [read, { path: '.env' }], [read, { path: '/etc/hostname' }],
    [bash, { command: 'cat notes.txt' }], [bash, { command: 'git status' }], [bash, { command: 'git status; rm -rf ~' }], [bash, { command: 'cat .env' }],
  ] as const) {
    const verdict = await real.check(tool, input);
    io.write(`   ${tool.name} ${JSON.stringify(input)}: ${verdict.behavior}\n`);
  }
  return asked;
}
