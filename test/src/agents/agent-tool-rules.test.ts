// `Agent(type)` rules against the real agent tool and the real checker: a scoped rule reaches the type it names only.
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import type { AnyTool } from '../../../src/tools/tool.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { PermissionRuleSet } from '../../../src/permissions/types.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import { createBuiltinTools } from '../../../src/tools/builtin.js';

async function decide(rules: Partial<PermissionRuleSet>, type: string): Promise<string> {
  const ws = await realpath(await mkdtemp(join(tmpdir(), 'cairn-agent-rules-')));
  const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: { allow: [], ask: [], deny: [], ...rules }, cairnHome: join(ws, '.home') });
  const tool = createAgentTool({
    definitions: () => BUILTIN_AGENTS,
    provider: () => createOfflineProvider(),
    tools: () => createBuiltinTools(),
    permissions: () => checker,
    environment: () => '',
    cwd: ws,
  }) as AnyTool;
  return (await checker.check(tool, { type, task: 't', description: 'd' })).behavior;
}

describe('Agent(...) rules on the agent tool', () => {
  it('Agent(explore) deny blocks only explore; other types run', async () => {
    expect(await decide({ deny: ['Agent(explore)'] }, 'explore')).toBe('deny');
    expect(await decide({ deny: ['Agent(explore)'] }, 'general')).toBe('allow');
  });

  it("Claude Code's spelling Agent(Explore) (and the old Task(...)) holds for cairn's explore", async () => {
    expect(await decide({ deny: ['Agent(Explore)'] }, 'explore')).toBe('deny');
    expect(await decide({ deny: ['Task(Explore)'] }, 'explore')).toBe('deny');
    expect(await decide({ deny: ['Agent(Explore)'] }, 'general')).toBe('allow');
  });

  it("Claude Code's Agent(general-purpose) holds for cairn's general, and a custom type of that name", async () => {
    expect(await decide({ deny: ['Agent(general-purpose)'] }, 'general')).toBe('deny');
    expect(await decide({ deny: ['Agent(general-purpose)'] }, 'general-purpose')).toBe('deny');
    expect(await decide({ deny: ['Agent(general)'] }, 'general-purpose')).toBe('deny');
    expect(await decide({ deny: ['Agent(general-purpose)'] }, 'explore')).toBe('allow');
  });

  it('a scoped ask rule asks for that type only', async () => {
    expect(await decide({ ask: ['Agent(general)'] }, 'general')).toBe('ask');
    expect(await decide({ ask: ['Agent(general)'] }, 'explore')).toBe('allow');
  });

  it('an allow for one type does not allow another that a rule holds back', async () => {
    expect(await decide({ allow: ['Agent(explore)'], ask: ['Agent(general)'] }, 'general')).toBe('ask');
    expect(await decide({ allow: ['Agent(explore)'], deny: ['Agent(general)'] }, 'general')).toBe('deny');
    expect(await decide({ allow: ['Agent(explore)'], deny: ['Agent'] }, 'general')).toBe('deny');
    // ...and does not lift a deny on the type it names either.
    expect(await decide({ allow: ['Agent(explore)'], deny: ['Agent'] }, 'explore')).toBe('deny');
  });

  it('a wildcard deny reaches the types it matches', async () => {
    expect(await decide({ deny: ['Agent(gen*)'] }, 'general')).toBe('deny');
    expect(await decide({ deny: ['Agent(gen*)'] }, 'explore')).toBe('allow');
  });
});
