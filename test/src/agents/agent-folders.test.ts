import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentDefinitions } from '../../../src/agents/agent-definition-loader.js';

const def = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nBody.`;

async function tree(files: Record<string, string>): Promise<string> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-agent-folders-')));
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(base, rel)), { recursive: true });
    await fs.writeFile(path.join(base, rel), text);
  }
  return base;
}

describe('.claude/agents from the workspace up to the repository root', () => {
  it('every folder from the git root down is read, and the nearest definition of a name wins', async () => {
    const base = await tree({
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/.claude/agents/shared.md': def('shared', 'from the repository root'),
      'repo/.claude/agents/root-only.md': def('root-only', 'only at the root'),
      'repo/packages/api/.claude/agents/shared.md': def('shared', 'from packages/api, nearest'),
      'repo/packages/api/src/.keep': '',
      'above/.claude/agents/outside.md': def('outside', 'above the repository'),
    });
    const home = path.join(base, 'cairn-home');
    const { agents, problems } = await loadAgentDefinitions(home, path.join(base, 'repo', 'packages', 'api', 'src'));
    expect(problems).toEqual([]);
    const byName = new Map(agents.map((a) => [a.name, a]));
    expect(byName.get('shared')?.description).toBe('from packages/api, nearest');
    expect(byName.get('shared')?.source).toBe(path.join(base, 'repo', 'packages', 'api', '.claude', 'agents', 'shared.md'));
    expect(byName.get('root-only')?.description).toBe('only at the root');
    expect(byName.has('outside')).toBe(false);
  });

  it('outside a git repository only the workspace’s own folder is read', async () => {
    const base = await tree({
      'parent/.claude/agents/parent.md': def('parent', 'in the parent folder'),
      'parent/ws/.claude/agents/here.md': def('here', 'in the workspace'),
    });
    const { agents } = await loadAgentDefinitions(path.join(base, 'cairn-home'), path.join(base, 'parent', 'ws'));
    const names = agents.map((a) => a.name);
    expect(names).toContain('here');
    expect(names).not.toContain('parent');
  });
});
