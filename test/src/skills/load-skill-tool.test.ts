import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLoadSkillTool } from '../../../src/skills/load-skill-tool.js';
import type { Skill } from '../../../src/skills/skill.js';
import { discoverSkills } from '../../../src/skills/skill-discovery.js';

const ctx = { cwd: '/tmp', signal: new AbortController().signal };

async function fixtureSkills(): Promise<Skill[]> {
  return (await discoverSkills([{ source: 'claude-project', dir: resolve('test/fixtures/claude-project/.claude/skills') }])).skills;
}

describe('load_skill', () => {
  it('returns the body and the paths of the files beside it, and activates the skill for the turn', async () => {
    const skills = await fixtureSkills();
    const activated: string[] = [];
    const tool = createLoadSkillTool({ skills: () => skills, activate: (s) => activated.push(s.name) > 0 });
    expect(tool.effects?.({ name: 'x' })).toBe('none');
    expect(tool.isConcurrencySafe?.({ name: 'x' })).toBe(true);
    const result = await tool.call({ name: 'api-client' }, ctx);
    const dir = resolve('test/fixtures/claude-project/.claude/skills/api-client');
    expect(result.isError).toBeUndefined();
    expect(result.content).toContain('Read `references/conventions.md`, then fill `templates/client.ts.tmpl`');
    expect(result.content).toContain(`- ${dir}/references/conventions.md\n- ${dir}/templates/client.ts.tmpl`);
    expect(result.content).toContain('Allowed without asking for the rest of this turn: Read, Write(src/api/**), Edit(src/api/**).');
    expect(activated).toEqual(['api-client']);
  });

  it('refuses a skill only the user may run, and an unknown one, naming what there is; neither activates anything', async () => {
    const skills = await fixtureSkills();
    const activated: string[] = [];
    const tool = createLoadSkillTool({ skills: () => skills, activate: (s) => activated.push(s.name) > 0 });
    const userOnly = await tool.call({ name: 'db-migration' }, ctx);
    expect(userOnly).toMatchObject({ isError: true, content: expect.stringContaining('run only by the user (they type /db-migration)') });
    const unknown = await tool.call({ name: 'nope' }, ctx);
    expect(unknown).toMatchObject({ isError: true, content: 'No skill named "nope". Skills: api-client, release-notes.' });
    expect(activated).toEqual([]);
  });
});
