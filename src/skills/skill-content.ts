import type { Skill } from './skill.js';
import { skillFiles } from './skill-files.js';

/** `${CLAUDE_SKILL_DIR}` (Claude Code's spelling) and `${CAIRN_SKILL_DIR}` name the skill's folder, so its scripts can be run by path. */
export function withSkillDir(skill: Skill, text: string): string {
  return text.replace(/\$\{(?:CLAUDE|CAIRN)_SKILL_DIR\}/g, skill.dir);
}

/** What the model gets when a skill is loaded or run: the instructions, then the files beside them with their paths. */
export async function skillContent(skill: Skill, body: string = skill.body): Promise<string> {
  const { files, more, problems } = await skillFiles(skill.dir);
  const lines = [
    withSkillDir(skill, body) || '(the skill has no instructions beyond its description)',
    '',
    files.length > 0 ? `Files in the skill's folder (${skill.dir}); read them with read_file when the instructions call for them:` : `The skill's folder (${skill.dir}) holds no other files.`,
    ...files.map((f) => `- ${f}`),
    ...(more ? ['- ... (more files not listed)'] : []),
    ...problems.map((p) => `(could not list ${p})`),
  ];
  return lines.join('\n');
}

/** The grants a skill brings for its turn: its allowed-tools (unless withheld: an untrusted project's), and reading its own folder. */
export function skillGrants(skill: Skill, allowedTools = true): string[] {
  // A folder whose name a glob would misread gets no read grant: reads of it are asked as usual.
  const readOwnFolder = /[*?[\]{}()!\\]/.test(skill.dir) ? [] : [`Read(/${skill.dir}/**)`];
  return [...(allowedTools ? skill.allowedTools : []), ...readOwnFolder];
}
