import type { PermissionMode } from '../events.js';
import { readGitInfo, type GitInfo } from './git-info.js';
import { memoryPath, readMemory } from './long-term-memory.js';
import { loadInstructionFiles, type InstructionFile } from './instruction-files.js';
import { assembleSystemPrompt, type PromptSection } from './system-prompt.js';
import { errorMessage } from '../util/error-message.js';
import { createProblemReporter, type ReportProblem } from '../util/problem-reporter.js';

export interface SystemPromptSource {
  /** Assembled fresh each turn: memory files and mode changes apply on the next model call. */
  build(ctx: { mode: PermissionMode; model: string }): Promise<{ text: string; sections: PromptSection[] }>;
}

export function createSystemPromptSource(opts: {
  cwd: string;
  cairnHome: string;
  toolNames: () => readonly string[];
  now: () => Date;
  skills?: () => readonly { name: string; description: string }[];
  /** An instruction file that cannot be read; each distinct problem is reported once. */
  onProblem?: ReportProblem;
}): SystemPromptSource {
  const report = createProblemReporter(opts.onProblem);
  // Git is read once per session so the prompt stays byte-stable between turns.
  let git: Promise<GitInfo | undefined> | undefined;
  return {
    async build({ mode, model }) {
      git ??= readGitInfo(opts.cwd);
      const scopes = { cairnHome: opts.cairnHome, cwd: opts.cwd };
      const [gitInfo, instructionFiles, user, project] = await Promise.all([
        git,
        loadInstructionFiles(opts.cairnHome, opts.cwd, report),
        readMemoryOrReport(memoryPath('user', scopes), report),
        readMemoryOrReport(memoryPath('project', scopes), report),
      ]);
      const longTermMemory: InstructionFile[] = [
        { path: memoryPath('user', scopes), content: user },
        { path: memoryPath('project', scopes), content: project },
      ];
      return assembleSystemPrompt({
        cwd: opts.cwd,
        model,
        mode,
        date: opts.now(),
        toolNames: opts.toolNames(),
        ...(gitInfo ? { git: gitInfo } : {}),
        instructionFiles,
        longTermMemory,
        ...(opts.skills ? { skills: opts.skills() } : {}),
      });
    },
  };
}

/** A memory file that cannot be read is left out of this prompt and reported, naming it. */
async function readMemoryOrReport(file: string, report: ReportProblem): Promise<string> {
  try {
    return await readMemory(file);
  } catch (error) {
    report(`Memory ${errorMessage(error)}; it is left out of the system prompt`);
    return '';
  }
}
