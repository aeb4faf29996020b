// Claude Code's `Skill(...)` rules against the real load_skill tool and the real checker.
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { PermissionRuleSet } from '../../../src/permissions/types.js';
import { createLoadSkillTool } from '../../../src/skills/load-skill-tool.js';
import type { AnyTool } from '../../../src/tools/tool.js';

const tool = createLoadSkillTool({ skills: () => [], activate: () => true }) as AnyTool;

async function decide(rules: Partial<PermissionRuleSet>, name: string): Promise<string> {
  const ws = await realpath(await mkdtemp(join(tmpdir(), 'cairn-skill-rules-')));
  const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: { allow: [], ask: [], deny: [], ...rules }, cairnHome: join(ws, '.home') });
  return (await checker.check(tool, { name })).behavior;
}

describe('Skill(...) rules on load_skill', () => {
  it('Skill(drop-db) deny holds back that skill only (a leading / too)', async () => {
    expect(await decide({ deny: ['Skill(drop-db)'] }, 'drop-db')).toBe('deny');
    expect(await decide({ deny: ['Skill(drop-db)'] }, '/drop-db')).toBe('deny');
    expect(await decide({ deny: ['Skill(drop-db)'] }, 'deploy')).toBe('allow');
  });

  it('a bare Skill deny holds back every skill; Skill(deploy *) asks for a prefix', async () => {
    expect(await decide({ deny: ['Skill'] }, 'deploy')).toBe('deny');
    expect(await decide({ ask: ['Skill(deploy *)'] }, 'deploy staging')).toBe('ask');
    expect(await decide({ ask: ['Skill(deploy *)'] }, 'review')).toBe('allow');
  });

  it('asking for a skill by an alias is judged as its real name: Skill(skill-creator) deny holds back create-skill', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'cairn-skill-rules-')));
    const creator = { name: 'skill-creator', aliases: ['create-skill'], description: 'd', dir: ws, file: join(ws, 'SKILL.md'), body: 'b', source: 'cairn' as const, allowedTools: [], disableModelInvocation: false };
    const aliased = createLoadSkillTool({ skills: () => [creator], activate: () => true }) as AnyTool;
    const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: { allow: [], ask: [], deny: ['Skill(skill-creator)'] }, cairnHome: join(ws, '.home') });
    expect((await checker.check(aliased, { name: 'create-skill' })).behavior).toBe('deny');
    expect((await checker.check(aliased, { name: '/create-skill' })).behavior).toBe('deny');
    expect((await checker.check(aliased, { name: 'skill-creator' })).behavior).toBe('deny');
  });

  it('an allow for one skill lifts no deny on another', async () => {
    expect(await decide({ allow: ['Skill(deploy)'], deny: ['Skill(drop-db)'] }, 'drop-db')).toBe('deny');
  });
});
