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
  body: string;
  file: string;
  source: SkillSource;
}

export interface CommandProblem {
  file: string;
  message: string;
}
