import type { SkillSource } from '../skills/skill.js';

/** A Markdown file from a commands folder: `/name` runs its body as the prompt. */
export interface CustomCommand {
  /** `git:commit` for git/commit.md: folders become namespaces. */
  name: string;
  description: string;
  argumentHint?: string;
  allowedTools: string[];
  /** As written (an alias or a model id); the prompt's turn runs on it, the session keeps its own. */
  model?: string;
  /** The `arguments` field: `$name` in the body is the word at that name's position. */
  argumentNames?: string[];
  body: string;
  file: string;
  source: SkillSource;
  /** Rules of the format it bends and loads anyway (as Claude Code does), one line each. */
  warnings?: string[];
}

export interface CommandProblem {
  file: string;
  message: string;
}
