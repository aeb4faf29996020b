import * as z from 'zod';
import { errorResult } from '../tools/result.js';
import { defineTool, type Tool } from '../tools/tool.js';
import { findSkill, type Skill } from './skill.js';
import { skillContent } from './skill-content.js';

const inputSchema = z.object({
  name: z.string().describe('The skill to load, as listed under # Skills in the system prompt.'),
});

export type LoadSkillInput = z.infer<typeof inputSchema>;

export interface LoadSkillDeps {
  /** The skills found at start, winners only. */
  skills: () => readonly Skill[];
  /**
   * The skill is active for the rest of the turn (its allowed-tools, reading its folder): true when its
   * allowed-tools were granted, false when the workspace is not trusted, or why else they were withheld.
   */
  activate: (skill: Skill) => boolean | string;
}

const description = `Load a skill: its instructions, and the paths of the files in its folder (scripts, references, templates).
- Call it when the user's task matches a skill listed under # Skills, before doing the task, then follow the instructions.
- Read the skill's files with read_file only when the instructions call for them.`;

/** The model's way into a skill (progressive disclosure): read-only, safe to run beside other reads. */
export function createLoadSkillTool(deps: LoadSkillDeps): Tool<LoadSkillInput> {
  return defineTool({
    name: 'load_skill',
    description,
    inputSchema,
    describe: (input) => ({ title: input.name, subject: { kind: 'input' } }),
    kind: 'read',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    // `Skill(name)` rules match the skill asked for, by its real name: a scoped deny holds back that
    // skill only, and asking for it by an alias is held back the same.
    ruleSubject: (input) => {
      const name = input.name.trim().replace(/^\//, '');
      return findSkill(deps.skills(), name)?.name ?? name;
    },
    async call(input) {
      const name = input.name.trim().replace(/^\//, '');
      const skills = deps.skills();
      const skill = findSkill(skills, name);
      if (!skill) {
        const offered = skills.filter((s) => !s.disableModelInvocation).map((s) => s.name);
        return errorResult(`No skill named "${name}". Skills: ${offered.length > 0 ? offered.join(', ') : '(none)'}.`);
      }
      if (skill.disableModelInvocation) {
        return errorResult(`The skill "${name}" is run only by the user (they type /${name}); it cannot be loaded by the model.`);
      }
      const granted = deps.activate(skill);
      const lines = [
        `Skill "${skill.name}" loaded from ${skill.file}.`,
        ...(skill.allowedTools.length === 0
          ? []
          : granted === true
            ? [`Allowed without asking for the rest of this turn: ${skill.allowedTools.join(', ')}.`]
            : [`Its allowed-tools (${skill.allowedTools.join(', ')}) are not granted: ${granted === false ? 'the workspace is not trusted' : granted}, so those calls are asked as usual.`]),
        '',
        await skillContent(skill),
      ];
      return { content: lines.join('\n') };
    },
  });
}
