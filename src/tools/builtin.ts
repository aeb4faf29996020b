import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { ShellManager } from '../shells/shell-manager.js';
import { createBashOutputTool } from './bash-output.js';
import { createBashTool } from './bash.js';
import { createEditFileTool } from './edit-file.js';
import { createGlobTool } from './glob.js';
import { createGrepTool, SAVED_GREP_CHARS, SAVED_GREP_RESULTS } from './grep.js';
import { createKillShellTool } from './kill-shell.js';
import { createListDirTool } from './list-dir.js';
import { createReadFileTool } from './read-file.js';
import type { AnyTool } from './tool.js';
import { createWriteFileTool } from './write-file.js';

export interface BuiltinToolsOptions {
  /** Background shells: bash gets run_in_background, and bash_output and kill_shell are added after it. */
  shells?: ShellManager;
  /** The OS sandbox bash commands run in. */
  sandbox?: CommandSandbox;
  /** Bash output kept for a caller that saves large results to a file (default: what the model gets, 30,000 characters); set, grep's 250-result cap is lifted too. */
  outputChars?: number;
  /** The environment bash commands run with (the session's); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** The tools every session starts with, in the order the model sees them. */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): AnyTool[] {
  const { shells, sandbox, outputChars, env } = options;
  return [
    createReadFileTool(),
    createWriteFileTool(),
    createEditFileTool(),
    createListDirTool(),
    createGlobTool(),
    createGrepTool(outputChars ? { maxResults: SAVED_GREP_RESULTS, maxChars: SAVED_GREP_CHARS } : {}),
    createBashTool({ ...(shells ? { shells } : {}), ...(sandbox ? { sandbox } : {}), ...(outputChars ? { keepChars: outputChars } : {}), ...(env ? { env } : {}) }),
    ...(shells ? [createBashOutputTool(shells), createKillShellTool(shells)] : []),
  ];
}
