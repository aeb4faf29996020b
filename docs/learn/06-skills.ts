// Step 6: skills. A folder with a SKILL.md: its description sits in the system prompt, its body is
// loaded only when the model asks for it (load_skill), so a hundred skills cost a hundred lines.
import fs from 'node:fs';
import path from 'node:path';
import { agentLoop, readFileTool, type LearnTool } from './05-tool-loop.js';
import { defaultIo, sampleWorkspace, SAMPLE_FILES, type StepIo } from './learn-kit.js';

export interface Skill { name: string; description: string; body: string }

/** `---\nname: x\ndescription: y\n---\nbody`: the minimal frontmatter a SKILL.md carries. */
export function loadSkills(dir: string): Skill[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).sort().flatMap((name) => {
    const file = path.join(dir, name, 'SKILL.md');
    if (!fs.existsSync(file)) return [];
    const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(fs.readFileSync(file, 'utf8'));
    const field = (key: string): string | undefined => new RegExp(`^${key}:\\s*(.+)$`, 'm').exec(m?.[1] ?? '')?.[1]?.trim();
    const description = field('description');
    return m && description ? [{ name: field('name') ?? name, description, body: m[2] ?? '' }] : [];
  });
}

export function loadSkillTool(skills: Skill[]): LearnTool {
  return {
    name: 'load_skill',
    description: 'Loads a skill\'s full instructions by name.',
    input_schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    async run(input) {
      const skill = skills.find((s) => s.name === input['name']);
      return skill ? { content: skill.body } : { content: `No skill named ${String(input['name'])}`, isError: true };
    },
  };
}

const HAIKU = '---\nname: haiku\ndescription: Turns a text file into a haiku. Use when asked for a poem about a file.\n---\nRead the file, then answer with three lines of 5, 7 and 5 syllables.\n';

export async function main(io: StepIo = defaultIo(), cwd = sampleWorkspace({ ...SAMPLE_FILES, 'skills/haiku/SKILL.md': HAIKU })): Promise<string> {
  const skills = loadSkills(path.join(cwd, 'skills'));
  const system = `You are a coding agent.\n\nSkills (load one with load_skill before following it):\n${skills.map((s) => `- ${s.name}: ${s.description}`).join('\n')}`;
  io.write(`${system}\n\n`);
  const prompt = 'use the haiku skill on notes.txt';
  io.write(`> ${prompt}\n`);
  const answer = await agentLoop({
    model: io.model,
    system,
    history: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    tools: [loadSkillTool(skills), readFileTool],
    cwd,
    write: io.write,
  });
  io.write(`${answer}\n`);
  return answer;
}
