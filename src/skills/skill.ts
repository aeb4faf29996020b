/** Where a skill or custom command was found, lowest precedence first. */
export type SkillSource = 'cairn' | 'cairn-home' | 'claude-user' | 'claude-project' | 'cairn-project';

/** user/project, as the palette says it; the shipped skills are cairn's own. */
export function sourceScope(source: SkillSource): 'built-in' | 'user' | 'project' {
  if (source === 'cairn') return 'built-in';
  return source === 'claude-project' || source === 'cairn-project' ? 'project' : 'user';
}

export interface Skill {
  /** The folder's name, which the frontmatter's `name` must equal. */
  name: string;
  description: string;
  /** The folder holding SKILL.md (absolute). */
  dir: string;
  /** SKILL.md's absolute path. */
  file: string;
  body: string;
  source: SkillSource;
  /** Permission rules allowed without asking while the skill is active in a turn. */
  allowedTools: string[];
  /** Kept out of the model's list and load_skill; the user can still run /<name>. */
  disableModelInvocation: boolean;
  argumentHint?: string;
  license?: string;
}

/** A SKILL.md that could not be used: its path and why. */
export interface SkillProblem {
  file: string;
  message: string;
}
