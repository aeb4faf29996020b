/** Where a skill or custom command was found, lowest precedence first. */
export type SkillSource = 'cairn' | 'cairn-home' | 'claude-user' | 'claude-project' | 'cairn-project' | 'plugin';

/** user/project, as the palette says it; the shipped skills are cairn's own. A plugin's count as the user's: only the user (or a trusted folder) enables one. */
export function sourceScope(source: SkillSource): 'built-in' | 'user' | 'project' {
  if (source === 'cairn') return 'built-in';
  return source === 'claude-project' || source === 'cairn-project' ? 'project' : 'user';
}

export interface Skill {
  /** The folder's name (the command is `/<folder>`; a different frontmatter `name` is only warned about). */
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
  /** The `arguments` field: `$name` in the body is the word at that name's position. */
  argumentNames?: string[];
  license?: string;
  /** Other names it answers to (`metadata: { aliases: ... }`), e.g. a shipped skill's former name. */
  aliases?: readonly string[];
  /** Rules of the format it bends and loads anyway (as Claude Code does), one line each. */
  warnings?: string[];
}

/** The skill of this name, or else the one that has it as an alias: a real name always wins. */
export function findSkill<S extends Pick<Skill, 'name' | 'aliases'>>(skills: readonly S[], name: string): S | undefined {
  return skills.find((s) => s.name === name) ?? skills.find((s) => s.aliases?.includes(name));
}

/** A SKILL.md that could not be used: its path and why. */
export interface SkillProblem {
  file: string;
  message: string;
}
